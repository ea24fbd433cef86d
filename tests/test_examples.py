"""The gateway recipes under examples/ are real programs: run them and check what they send."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> list[str]:
    """Run ``python examples/<script> ARGS`` as a user would; its output lines."""
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout.splitlines()


def load(script: str) -> ModuleType:
    """Import an example as a module (they are scripts, not a package)."""
    name = "example_" + script.removesuffix(".py")
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def calls_of(lines: list[str]) -> list[dict[str, object]]:
    """The recorded API calls printed by the Telegram recipe, in order."""
    return [json.loads(line) for line in lines if line.startswith("   {")]


def test_telegram_gateway_sends_text_media_voice_and_reply_targets() -> None:
    lines = run("telegram_gateway.py")
    calls = calls_of(lines)
    assert calls[0] == {
        "method": "sendMessage",
        "chat_id": 1001,
        "text": "Here is the chart you asked for.",
        "reply_to_message_id": "4821",  # [[reply_to_current]] resolved to the message answered
    }
    assert calls[1]["method"] == "sendPhoto"
    assert calls[1]["photo"] == "https://example.com/charts/q3.png"
    # the refused http://intranet/... reference is not sent; the user is told one was held back
    assert calls[2]["text"].startswith("(1 attachment held back")
    assert not any("intranet" in json.dumps(c) for c in calls)
    # [[audio_as_voice]] turns the .ogg into a voice note; nothing else is sent for that reply
    assert calls[3] == {
        "method": "sendVoice",
        "chat_id": 1001,
        "voice": "/workspace/outbound/summary.ogg",
    }
    # an explicit [[reply_to:70]] wins; file: URLs arrive as paths; code stays text
    chat2 = [c for c in calls if c["chat_id"] == 1002]
    assert {c.get("reply_to_message_id") for c in chat2} == {"70"}
    assert chat2[0]["text"].endswith("write `MEDIA:/path` on its own line.")
    assert chat2[1] == {
        "method": "sendDocument",
        "chat_id": 1002,
        "document": "/workspace/reports/Q3 summary.xlsx",
        "reply_to_message_id": "70",
    }
    assert chat2[2]["photo"] == "/workspace/photos/team day.jpg"
    assert "-- reply to message 78 in chat 1002" in lines
    assert lines[lines.index("-- reply to message 78 in chat 1002") + 1] == (
        "   (silent: nothing sent)"
    )
    # a traversal path and a path outside the workspace (the gateway's Policy) are never
    # sent, only reported
    chat3 = [c for c in calls if c["chat_id"] == 1003]
    assert [c["method"] for c in chat3] == ["sendMessage"] * 4
    assert chat3[0]["text"] == "Your file:"
    assert chat3[2]["text"] == "And the key you asked for:"
    assert chat3[3]["text"].startswith("(1 attachment held back")
    assert not any("ssh_host" in json.dumps(c) for c in calls)
    assert lines[-1] == f"{len(calls)} API calls" == "11 API calls"


def test_telegram_gateway_reads_another_input_file(tmp_path: Path) -> None:
    source = tmp_path / "replies.json"
    source.write_text(
        json.dumps([{"chat_id": 5, "message_id": "m", "reply": "Hi\nMEDIA:./out/a.mp4"}]),
        encoding="utf-8",
    )
    module = load("telegram_gateway.py")
    bot = module.FakeTelegram()
    module.deliver(bot, 5, "m", "Hi\nMEDIA:./out/a.mp4")
    assert bot.calls == [
        {"method": "sendMessage", "chat_id": 5, "text": "Hi"},
        {"method": "sendVideo", "chat_id": 5, "video": "./out/a.mp4"},
    ]
    assert run("telegram_gateway.py", str(source))[-1] == "2 API calls"


def test_block_streaming_gateway_never_sends_media_twice() -> None:
    lines = run("block_streaming_gateway.py")
    sends = [line for line in lines if line.startswith("   send ")]
    sent = [json.loads(line.split(": ", 1)[1]) for line in sends]
    media = [ref for p in sent for ref in p.get("mediaUrls", [])]
    assert media == [
        "https://example.com/charts/q3.png",
        "/workspace/reports/Q3 summary.xlsx",
        "/workspace/out/map.png",
        "/workspace/out/legend.png",  # only the final payload had it
    ]
    # blocks end at paragraph starts: never in a half-written MEDIA: line, tag or fence
    assert not any("MED" in p.get("text", "") and "```" not in p["text"] for p in sent)
    assert not any("[[" in p.get("text", "") for p in sent)
    assert {"text": "```\nMEDIA:/not/a/directive.png\n\n```", "replyToId": "m-1"} in sent
    # turn 1 streamed everything: the final payload is dropped whole
    first = lines.index("-- turn answering m-2")
    assert "   final: nothing left to send" in lines[:first]
    turn1 = [json.loads(x.split(": ", 1)[1]) for x in lines[:first] if x.startswith("   send ")]
    assert turn1 and all(p.get("replyToId") == "m-1" for p in turn1)
    # turn 2 broke off: the final keeps the text and the new media only
    assert sends[-1].startswith("   send final: ")
    assert sent[-1]["mediaUrls"] == ["/workspace/out/legend.png"]
    assert lines[-1] == "8 sends, 4 attachments, 4 distinct"


def test_skill_runner_classifies_budgets_and_offloads(tmp_path: Path) -> None:
    lines = run("skill_runner.py", "--workspace", str(tmp_path))
    assert lines[0] == '[1] weather({"city": "Berlin"}): ok'
    assert lines[1] == "[2] weather({}): recoverable failure, back to the model: which city?"
    assert "    download https://cdn.example.com/gen/lighthouse.png" in lines
    assert '[7] pdf_convert({"file": "scan.heic"}): refused (skill_disabled)' in lines
    assert '[8] import_contacts({"file": "contacts.csv"}): partial success' in lines
    sms = next(line for line in lines if line.startswith("[5] sms_send"))
    assert "(1/4 for sms_send, 1/8 this round); a configuration problem" in sms
    assert lines[-1] == "8 calls, 1 refused; 2 counted failures; disabled: pdf_convert"
    # the large result was written whole, and the model saw a receipt
    written = list((tmp_path / ".toolout").glob("toolout_orders_search_*.json"))
    assert len(written) == 1
    full = json.loads(written[0].read_text(encoding="utf-8"))
    assert len(full["rows"]) == 160
    receipt = lines[lines.index(next(x for x in lines if "offloaded 13821 chars" in x)) + 1]
    assert (
        "total=160" in receipt
        and "rows_count=160" in receipt
        and "rows_sample=[3 items]" in receipt
    )


@pytest.mark.parametrize(
    "script", ["telegram_gateway.py", "block_streaming_gateway.py", "skill_runner.py"]
)
def test_the_recipes_page_shows_the_real_output(script: str) -> None:
    page = (EXAMPLES.parent / "docs" / "recipes.md").read_text(encoding="utf-8")
    start = page.index(f"```console\n$ python examples/{script}\n") + len("```console\n")
    shown = page[start : page.index("\n```", start)].splitlines()[1:]
    assert shown == run(script)


@pytest.mark.parametrize("script", ["telegram_gateway.py", "block_streaming_gateway.py"])
def test_recipes_import_without_side_effects(
    script: str, capsys: pytest.CaptureFixture[str]
) -> None:
    load(script)
    assert capsys.readouterr().out == ""
