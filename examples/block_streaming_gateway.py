"""A block-streaming gateway: show a reply while it is written, never send media twice.

Each delta the model produces goes into a ``richout.StreamingParser``, which holds back what is
not safe to show yet (a half-written ``[[reply_to…`` tag, a ``MEDIA:`` line whose end has not
arrived) and returns the rest as a chunk. The gateway sends every chunk at once as blocks: its
text as a text block and each of its ``MEDIA:`` references as a media block (a caption sent
with media would not count as text already shown). Each delivered block is recorded in a
``richout.envelope.DeliveryLedger``.

When the turn ends, the runner's final payload (the whole reply, parsed by
``StreamingParser.result()``, or the runner's own final text when the stream broke off) goes
through ``DeliveryLedger.finalize``: references already delivered as blocks are removed, text
already shown is dropped, and only what is left is sent — often nothing.

    python examples/block_streaming_gateway.py              # the bundled stream_turns.json
    python examples/block_streaming_gateway.py turns.json   # [{message_id, deltas, ...}]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import richout
from richout.envelope import DeliveryLedger

SAMPLE = Path(__file__).with_name("stream_turns.json")


@dataclass
class FakeChannel:
    """Records what would be sent to the chat."""

    sent: list[dict[str, Any]] = field(default_factory=list)

    def send(self, kind: str, payload: dict[str, Any]) -> None:
        """Record one delivered block or final payload."""
        self.sent.append({"kind": kind, **payload})
        print(f"   send {kind}: {json.dumps(payload, ensure_ascii=False)}")


def send_chunk(
    channel: FakeChannel, ledger: DeliveryLedger, chunk: richout.StreamChunk, reply_to: str | None
) -> None:
    """Deliver one streamed chunk as blocks and record each one as delivered."""
    block = richout.parse_reply(chunk.text)  # the chunk's MEDIA: lines become references
    blocks: list[dict[str, Any]] = []
    if block.text.strip():
        blocks.append({"text": block.text})
    blocks += [{"mediaUrl": ref} for ref in block.media_urls]
    for payload in blocks:
        if reply_to is not None:
            payload["replyToId"] = reply_to
        channel.send("block", payload)
        ledger.record_block(payload)  # only after the send succeeded: it is evidence


def run_turn(channel: FakeChannel, turn: dict[str, Any]) -> None:
    """Stream one assistant turn, then deliver what its final payload still adds."""
    message_id = turn["message_id"]
    parser = richout.StreamingParser()
    ledger = DeliveryLedger()
    for delta in turn["deltas"]:
        chunk = parser.feed(delta)
        held = parser.held
        print(f"   feed {delta!r}" + (f"  (holding {held!r})" if held else ""))
        if chunk is not None:
            reply_to = chunk.reply_to_id or (message_id if chunk.reply_to_current else None)
            send_chunk(channel, ledger, chunk, reply_to)
    completed = turn.get("stream_completed", True)
    if completed:
        last = parser.finish()
        if last is not None:
            send_chunk(channel, ledger, last, message_id if last.reply_to_current else None)
        final_text = parser.result(current_message_id=message_id)
    else:  # the stream broke off: the runner delivers its own final text
        final_text = richout.parse_reply(turn["final"], current_message_id=message_id)
    final: dict[str, Any] = {"text": final_text.text, "mediaUrls": final_text.media_urls}
    if final_text.reply_to_id is not None:
        final["replyToId"] = final_text.reply_to_id
    result = ledger.finalize([final], stream_completed=completed)
    for diagnostic in result.diagnostics:
        print(f"   dedupe: {diagnostic.message}")
    remaining = result.payloads[0]
    if remaining is None:
        print("   final: nothing left to send")
    else:
        channel.send("final", remaining.to_wire())


def main(argv: list[str] | None = None) -> int:
    """Run every turn of the input file and print what the gateway sends."""
    args = sys.argv[1:] if argv is None else argv
    source = Path(args[0]) if args else SAMPLE
    channel = FakeChannel()
    for turn in json.loads(source.read_text(encoding="utf-8")):
        print(f"-- turn answering {turn['message_id']}")
        run_turn(channel, turn)
    media = [p["mediaUrl"] for p in channel.sent if "mediaUrl" in p]
    media += [ref for p in channel.sent for ref in p.get("mediaUrls", [])]
    print(f"{len(channel.sent)} sends, {len(media)} attachments, {len(set(media))} distinct")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
