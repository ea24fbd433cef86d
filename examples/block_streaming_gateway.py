"""A block-streaming gateway: show a reply while it is written, never send media twice.

Each delta the model produces goes into a ``richout.BlockStreamer``, which returns blocks at
safe boundaries — the start of a new paragraph, never inside a code fence, a half-written
``[[reply_to…`` tag or a ``MEDIA:`` line whose end has not arrived — each with its text, its
attachments, the voice flag and the reply target. The gateway sends every block at once; the
streamer records each one in its ``richout.envelope.DeliveryLedger``.

When the turn ends, ``BlockStreamer.finish`` returns the last blocks and the final payload
after dedupe (ENVELOPE.md §4): references already delivered are removed, text already shown is
dropped, and only what is left is sent — for a completed stream, nothing. When the stream broke
off, the runner's own final text is passed with ``stream_completed=False``.

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

SAMPLE = Path(__file__).with_name("stream_turns.json")


@dataclass
class FakeChannel:
    """Records what would be sent to the chat."""

    sent: list[dict[str, Any]] = field(default_factory=list)

    def send(self, kind: str, payload: dict[str, Any]) -> None:
        """Record one delivered block or final payload."""
        self.sent.append({"kind": kind, **payload})
        print(f"   send {kind}: {json.dumps(payload, ensure_ascii=False)}")


def run_turn(channel: FakeChannel, turn: dict[str, Any]) -> None:
    """Stream one assistant turn, then deliver what its final payload still adds."""
    streamer = richout.BlockStreamer(current_message_id=turn["message_id"])
    for delta in turn["deltas"]:
        blocks = streamer.feed(delta)
        print(f"   feed {delta!r}" + (f"  (pending {streamer.pending!r})" if not blocks else ""))
        for block in blocks:
            channel.send("block", block.to_payload())
    completed = turn.get("stream_completed", True)
    done = streamer.finish(None if completed else turn["final"], stream_completed=completed)
    for block in done.blocks:
        channel.send("block", block.to_payload())
    for diagnostic in done.diagnostics:
        print(f"   dedupe: {diagnostic.message}")
    if done.payload is None:
        print("   final: nothing left to send")
    else:
        channel.send("final", done.payload.to_wire())


def main(argv: list[str] | None = None) -> int:
    """Run every turn of the input file and print what the gateway sends."""
    args = sys.argv[1:] if argv is None else argv
    source = Path(args[0]) if args else SAMPLE
    channel = FakeChannel()
    for turn in json.loads(source.read_text(encoding="utf-8")):
        print(f"-- turn answering {turn['message_id']}")
        run_turn(channel, turn)
    media = [ref for p in channel.sent for ref in p.get("mediaUrls", [])]
    print(f"{len(channel.sent)} sends, {len(media)} attachments, {len(set(media))} distinct")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
