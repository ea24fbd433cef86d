"""A Telegram-style gateway: deliver each final assistant reply with richout.parse_reply.

For every incoming message the assistant answered, the gateway parses the final reply with the
id of the message it answers, then sends the visible text, the attachments (as a voice note when
the reply asked for one), and the reply-to target. The gateway uploads local files from its
workspace and lets Telegram fetch https: URLs, so it narrows richout's reference policy with
``richout.Policy.strict(workspace_root=...)``: references richout refuses (an ``http:`` URL, an
internal host, a path that climbs out with ``..`` or lies outside the workspace) are not sent,
and the user is told how many were held back (``rejected_media_count``). Each attachment's
``kind`` and ``voice`` pick the Bot API method; no extension table of our own. A silent reply
(``NO_REPLY``) sends nothing.

The transport is a fake that records the Bot API calls it would make, so the recipe runs
anywhere::

    python examples/telegram_gateway.py                 # the bundled telegram_replies.json
    python examples/telegram_gateway.py replies.json    # your own [{chat_id, message_id, reply}]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import richout

SAMPLE = Path(__file__).with_name("telegram_replies.json")
#: Fetch-safe and confined: local files only from the gateway's workspace.
POLICY = richout.Policy.strict(workspace_root="/workspace")
#: Bot API method and parameter per attachment kind (``sendDocument`` for the rest).
METHODS = {"image": ("sendPhoto", "photo"), "video": ("sendVideo", "video")}


@dataclass
class FakeTelegram:
    """Records Bot API calls instead of making them."""

    calls: list[dict[str, Any]] = field(default_factory=list)

    def call(self, method: str, **params: Any) -> None:
        """Record one API call (``None`` parameters are left out, as the API ignores them)."""
        self.calls.append({"method": method, **{k: v for k, v in params.items() if v is not None}})


def media_method(attachment: richout.Attachment) -> tuple[str, str]:
    """The Bot API method and parameter name for one attachment."""
    if attachment.kind == "audio":
        return ("sendVoice", "voice") if attachment.voice else ("sendAudio", "audio")
    return METHODS.get(attachment.kind, ("sendDocument", "document"))


def deliver(bot: FakeTelegram, chat_id: int, message_id: str, text: str) -> richout.Reply:
    """Send one final reply to ``chat_id``, answering ``message_id``."""
    reply = richout.parse_reply(text, current_message_id=message_id, policy=POLICY)
    if reply.is_silent and not reply.media_urls:
        return reply  # the assistant chose not to answer
    reply_to = reply.reply_to_id  # None: a plain message, not a reply
    if reply.text:
        bot.call("sendMessage", chat_id=chat_id, text=reply.text, reply_to_message_id=reply_to)
    for attachment in reply.attachments:
        method, param = media_method(attachment)
        # Local paths are uploaded from the gateway's disk, https: URLs are fetched by Telegram.
        bot.call(
            method, chat_id=chat_id, **{param: attachment.reference}, reply_to_message_id=reply_to
        )
    if reply.rejected_media_count:
        n = reply.rejected_media_count
        bot.call(
            "sendMessage",
            chat_id=chat_id,
            text=f"({n} attachment{'s' if n > 1 else ''} held back: the link or path "
            "pointed somewhere I am not allowed to send from.)",
        )
    return reply


def main(argv: list[str] | None = None) -> int:
    """Deliver every reply of the input file and print the calls the gateway made."""
    args = sys.argv[1:] if argv is None else argv
    source = Path(args[0]) if args else SAMPLE
    bot = FakeTelegram()
    for item in json.loads(source.read_text(encoding="utf-8")):
        before = len(bot.calls)
        reply = deliver(bot, item["chat_id"], item["message_id"], item["reply"])
        print(f"-- reply to message {item['message_id']} in chat {item['chat_id']}")
        if reply.is_silent and not reply.media_urls:
            print("   (silent: nothing sent)")
        for call in bot.calls[before:]:
            print("  ", json.dumps(call, ensure_ascii=False))
    print(f"{len(bot.calls)} API calls")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
