"""Silent replies (TAGS.md §8) and the streaming silent helpers (§9.3 step 2).

Three kinds of evidence:

* the spec's tables and every edge of each rule, row by row;
* a *model*: each rule transcribed naively from the spec's wording with Python regexes and
  ``json.loads`` (fine on short texts, hopeless on hostile ones), compared with richout's
  scanners on thousands of generated texts built from the rules' own vocabulary;
* hostile inputs (long ``<think`` runs, punctuation runs, 100k repeated tokens, deep JSON)
  that must get an answer, not a hang or a crash.
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from richout.tags.silent import (
    is_silent,
    is_silent_prefix,
    is_token_only,
    may_contain_token,
    silent_rule,
    strip_leading_token,
)
from richout.text.chars import JS_WS_CLASS, ascii_lower, js_ltrim, js_trim

# --------------------------------------------------------------------------- spec tables

SECTION_8_TABLE = [
    ("<think>I should stay quiet</think>\nNO_REPLY", True),
    ("<think>x</think> I will stay quiet. NO_REPLY", True),
    ("<think>x</think> Sure thing NO_REPLY", False),
    ("<thinking>\nblah\nNO_REPLY", False),
    ("analysis:\nuser chat\nI will stay quiet.\nNO_REPLY", True),
    ("analysis:\nHere is the answer.\nI will stay quiet\nNO_REPLY", False),
    ("thinking\nreasoning notes NO_REPLY", True),
    ("I will stay quiet. NO_REPLY", False),
]


@pytest.mark.parametrize(("text", "silent"), SECTION_8_TABLE)
def test_section_8_table(text: str, silent: bool) -> None:
    assert is_silent(text) is silent


TOKEN_ONLY = [
    ("NO_REPLY", True),
    ("  no_reply  ", True),
    ("NO_REPLY.", True),
    ("**NO_REPLY**", True),
    ("¿NO_REPLY?", True),
    ("NO_REPLY\nNO_REPLY", True),
    ("No_Reply \t NO_REPLY \u3000", True),
    ("🤐 NO_REPLY", False),  # an emoji is a symbol (So), not punctuation
    ("no_reply please", False),
    ("NO_REPLYNO_REPLY", False),  # repeats need whitespace between them
    ("NO_REPLY, NO_REPLY", False),  # punctuation is stripped at the edges only
    ("", False),
    ("   ", False),
    ("NO REPLY", False),
    ("_NO_REPLY_", True),  # "_" is connector punctuation (Pc)
    ("«NO_REPLY»", True),  # initial/final quotes (Pi/Pf)
    ("(NO_REPLY)", True),
    ("-- NO_REPLY --", True),  # dashes, then the whitespace the token-only form allows
    ("«\u00a0NO_REPLY\u00a0»", True),
    ("$NO_REPLY$", False),  # "$" is a currency symbol (Sc)
    ("+NO_REPLY", False),  # "+" is a math symbol (Sm)
    ("NO_REPLY\u0085", False),  # U+0085 is not JavaScript whitespace
    ("NO_REPLY\u2028", True),  # U+2028 is
]


@pytest.mark.parametrize(("text", "silent"), TOKEN_ONLY)
def test_token_only(text: str, silent: bool) -> None:
    assert is_token_only(text) is silent
    assert (silent_rule(text) == "8.1") is silent


JSON_FORMS = [
    ('" NO_REPLY "', True, "8.1"),  # '"' is punctuation: rule 8.1 answers first
    ('"\\u004eO_REPLY"', False, None),  # the raw text must contain the token
    ('"NO_REPLY\\n"', True, "8.2"),
    ('"no_reply\\t"', False, None),  # the JSON value must equal the token exactly
    ('"NO_REPLY" "x"', False, None),
    ('"NO_REPLY', True, "8.1"),  # not JSON, but the quote is edge punctuation
    ('{"action": " NO_REPLY "}', True, "8.3"),
    ('  {"action":"NO_REPLY"}\n', True, "8.3"),
    ('{\n  "action" :\t"NO_REPLY"\r\n}', True, "8.3"),
    ('{"action":"no_reply"}', False, None),
    ('{"action":"NO_REPLY","reason":"x"}', False, None),
    ('{"action":"NO_REPLY","action":"NO_REPLY"}', True, "8.3"),  # one key after JSON.parse
    ('{"act\\u0069on":"NO_REPLY"}', True, "8.3"),
    ('{"action":["NO_REPLY"]}', False, None),
    ('{"action":"NO_REPLY",}', False, None),  # trailing comma: not JSON
    ('{"action":NaN,"action":"NO_REPLY"}', False, None),  # NaN is not JSON
    ('{"x":[1,{"y":null}],"action":"NO_REPLY"}', False, None),
    ('{"action":"NO_REPLY"} {}', False, None),
    ('{"action":"NO_REPLY\x01"}', False, None),  # a raw control character: not JSON
    ("{'action':'NO_REPLY'}", False, None),
]


@pytest.mark.parametrize(("text", "silent", "rule"), JSON_FORMS)
def test_json_forms(text: str, silent: bool, rule: str | None) -> None:
    assert is_silent(text) is silent
    assert silent_rule(text) == rule


def test_json_forms_are_case_sensitive_but_token_only_is_not() -> None:
    assert is_silent("no_reply")
    assert not is_silent('{"action":"No_Reply"}')
    assert is_silent('{"action":"No_Reply"}', "No_Reply")


def test_deep_json_nesting_needs_no_recursion() -> None:
    deep = '{"a":' + "[" * 200_000 + "]" * 200_000 + ', "action":"NO_REPLY"}'
    assert not is_silent(deep)  # two keys
    dup = '{"action":' + "[" * 200_000 + "]" * 200_000 + ', "action":"NO_REPLY"}'
    assert is_silent(dup)  # the later "action" wins, as in JSON.parse
    unbalanced = '{"action":"NO_REPLY","x":' + "[" * 200_000 + "}"
    assert not is_silent(unbalanced)


REASONING = [
    # closed blocks (variant A)
    ("<think>a</think><think>b</think> NO_REPLY", True),
    ("<thinking>a</thinking>NO_REPLY", True),
    ("< think data-x='1'>a</think>NO_REPLY", True),
    ("<thinking>a</thinking> NO_REPLY", True),
    ("<mm:thought>a</thought> NO_REPLY", True),  # the closing name need not match
    ("<antthinking>a</ antthinking >\nNO_REPLY", True),
    ("<THINK>a</Think>NO_REPLY", True),
    ("<think>a</think> We won't reply here! NO_REPLY", True),
    ("<think>a</think> the bot has nothing to add.NO_REPLY", True),
    ("<think>a</think> **NO_REPLY**", True),
    ("<think>a</think> x NO_REPLY", False),
    ("<think>a</think>", False),
    ("<think>a</think> NO_REPLY x", False),
    ("<thinkx>a</thinkx> NO_REPLY", False),  # no word boundary after the name
    ("<think_>a</think> NO_REPLY", False),
    ("<think-x>a</think> NO_REPLY", True),  # "-" is a word boundary
    ("<antthinking>a</think> NO_REPLY", True),
    ("<think>a</think><think>b NO_REPLY", False),  # after a block only variant A applies
    ("<think>a</think> <think>I will stay quiet NO_REPLY", False),  # variant A, not B
    ("<think a<b>x</think> NO_REPLY", False),  # "<" inside the opening tag
    # open tag (variant B)
    ("<think>NO_REPLY", True),
    ("<think>\nI will stay quiet\nNO_REPLY", True),
    ("<think>\nchecking logs\nI will stay quiet\nNO_REPLY", True),
    ("<think>\nHere's the fix\nI will stay quiet\nNO_REPLY", False),
    ("<think>\nplease wait\nI will stay quiet\nNO_REPLY", False),
    ("<think>\nprivate reasoning notes NO_REPLY", True),
    ("<think>\nI will stay quiet\nchecking\nNO_REPLY", False),  # the intent must come last
    # plain prefix (variant B)
    ("thinking:\nNO_REPLY", True),
    ("Thought \n \n NO_REPLY", True),
    ("REASONING\nanalysis NO_REPLY", True),
    ("analysis\n: x NO_REPLY", False),  # the colon stays on the next line's side
    ("analysis: NO_REPLY", False),  # no line feed after the prefix
    ("analysis2\nNO_REPLY", False),
    ("analysisx\nNO_REPLY", False),
    ("thinking\nok\nwe will remain silent for now.\nNO_REPLY", True),
    ("thinking\nsure\nwe will remain silent for now.\nNO_REPLY", False),
]


@pytest.mark.parametrize(("text", "silent"), REASONING)
def test_reasoning_prefixed(text: str, silent: bool) -> None:
    assert is_silent(text) is silent


INTENT_SUBJECTS = [
    "I",
    "i'll",
    "I will",
    "I'm",
    "i am",
    "We",
    "we'll",
    "we  will",
    "The assistant",
    "assistant",
    "the\tbot",
    "Bot",
    "OpenClaw",
]
INTENT_PREDICATES = [
    "stay quiet",
    "will remain silent",
    "keep quiet here",
    "be silent for now",
    "stay quiet on this",
    "remain quiet in this chat",
    "stay silent in this thread",
    "be quiet in this channel",
    "keep silent in this conversation",
    "do not reply",
    "don't respond here",
    "dont reply",
    "will not respond for now",
    "won't reply on this",
    "would not respond in this thread",
    "should not reply",
    "have nothing to say",
    "has nothing for add",
    "have nothing to reply",
    "has nothing to respond",
]


@pytest.mark.parametrize("subject", INTENT_SUBJECTS)
@pytest.mark.parametrize("predicate", INTENT_PREDICATES)
def test_every_silent_intent_subject_and_predicate(subject: str, predicate: str) -> None:
    assert is_silent(f"<think>x</think> {subject} {predicate}. NO_REPLY")
    assert is_silent(f"<think>x</think>{subject} {predicate}!?.NO_REPLY")
    assert not is_silent(f"<think>x</think>{subject} {predicate}!?NO_REPLY")


NOT_INTENT = [
    "I will stay",
    "I stay quietly",
    "I will stay quiet now",
    "you will stay quiet",
    "I will stay quiet .",  # punctuation must touch the last word
    "I will stay quiet here for now",
    "I do reply",
    "I have nothing",
    "I'll stay quiet in this room",
    "I\u2019ll stay quiet",  # only the ASCII apostrophe
    "I don\u2019t reply",
]


@pytest.mark.parametrize("sentence", NOT_INTENT)
def test_not_a_silent_intent(sentence: str) -> None:
    assert not is_silent(f"<think>x</think> {sentence} NO_REPLY")


CUES = [
    "answer",
    "here's",
    "Here is",
    "here\nis",
    "tell them",
    "you should",
    "you can",
    "you could",
    "you need",
    "you must",
    "please",
    "try",
    "use",
    "send",
    "service is",
    "resolved",
    "retry",
    "yes",
    "no,x",
    "Sure",
]
NOT_CUES = [
    "answers",
    "reanswer",
    "here's_",
    "heres",
    "here isn't",
    "tellthem",
    "you shouldn't",
    "trying",
    "used",
    "yes2",
    "no, x",  # "no," needs a word character right after the comma
    "no,",
    "unsure",
    "_please",
]


@pytest.mark.parametrize("cue", CUES)
def test_substantive_cue_blocks_a_final_intent_line(cue: str) -> None:
    assert not is_silent(f"thinking\nnotes {cue} done\nI will stay quiet\nNO_REPLY")


@pytest.mark.parametrize("word", NOT_CUES)
def test_words_that_are_not_cues(word: str) -> None:
    assert is_silent(f"thinking\nnotes {word} done\nI will stay quiet\nNO_REPLY")


PLACEHOLDERS = [
    ("reasoning", True),
    ("Thinking", True),
    ("thought", True),
    ("thoughts", True),
    ("analysis notes", True),
    ("internal reasoning", True),
    ("private  thoughts  note", True),
    ("internal", False),
    ("reasoning notes here", False),
    ("public reasoning", False),
    ("internal private reasoning", False),
]


@pytest.mark.parametrize(("placeholder", "silent"), PLACEHOLDERS)
def test_reasoning_placeholders(placeholder: str, silent: bool) -> None:
    assert is_silent(f"analysis:\n{placeholder} NO_REPLY") is silent


FINAL_TOKEN = [
    ("thinking\nNO_REPLY", True),
    ("thinking\nx*NO_REPLY", False),  # strip applies, "x" is no intent or placeholder
    ("thinking\nthoughts*NO_REPLY", True),
    ("thinking\nthoughts.NO_REPLY", True),
    ("thinking\nthoughts,NO_REPLY", False),  # "," is not a separator before the token
    ("thinking\nthoughtsNO_REPLY", False),
    ("thinking\nthoughts NO_REPLY  \n ", True),
]


@pytest.mark.parametrize(("text", "silent"), FINAL_TOKEN)
def test_final_token_strip(text: str, silent: bool) -> None:
    assert is_silent(text) is silent


def test_custom_tokens() -> None:
    assert is_silent("SILENCE", "SILENCE")
    assert not is_silent("NO_REPLY", "SILENCE")
    assert is_silent("  quiet.bot  ", "QUIET.BOT")
    assert not is_silent("quietxbot", "QUIET.BOT")  # the "." of a token is literal
    assert is_silent("<think>x</think> SILENCE", "SILENCE")
    assert is_silent('{"action":"[x]"}', "[x]")


def test_tokens_with_edge_whitespace_and_the_empty_token() -> None:
    # The split between whitespace and such a token is ambiguous; the answer is the regex's.
    assert is_token_only("  X   X ", " X")
    assert not is_token_only("X", " X")
    assert is_token_only("X  X ", "X ")
    assert not is_token_only("X  X", "X ")
    assert is_silent(" ", "")
    assert not is_silent("", "")
    assert not is_silent("x", "")
    assert is_silent('" "', "")


# --------------------------------------------------------------------------- streaming helpers

SILENT_PREFIX = [
    ("NO", "NO_REPLY", True),
    (" NO_", "NO_REPLY", True),
    ("NO_REPLY", "NO_REPLY", True),
    ("No", "NO_REPLY", False),  # must equal its own upper-casing
    ("N", "NO_REPLY", False),  # at least two characters
    ("NO_REPLYX", "NO_REPLY", False),
    ("REPLY", "NO_REPLY", False),
    ("NO ", "NO_REPLY", False),
    ("HE", "HEARTBEAT_OK", False),  # "NO" is special to the default token only
    ("HEARTBEAT", "HEARTBEAT_OK", False),
    ("HEARTBEAT_", "HEARTBEAT_OK", True),
    ("HE", "HELP-QUIET", False),  # letters only, and the token has a non-letter
    ("HELP-", "HELP-QUIET", True),
    ("HELP-QUIET", "HELP-QUIET", True),
    ("SILENT", "SILENT", True),  # the whole token is safe for any token
    ("SIL", "SILENT", False),
    ("NO", "no_reply", True),  # compared with the upper-cased token
    ("", "NO_REPLY", False),
    ("NO", "", False),
]


@pytest.mark.parametrize(("text", "token", "expected"), SILENT_PREFIX)
def test_silent_prefix(text: str, token: str, expected: bool) -> None:
    assert is_silent_prefix(text, token) is expected


LEADING = [
    ("NO_REPLYhello", "hello"),
    ("  NO_REPLY NO_REPLYHello there", "Hello there"),
    ("NO_REPLYNO_REPLYhi", "hi"),
    ("NO_REPLY\nHello", "Hello"),
    ("NO_REPLY \r\n  Hello\n", "Hello"),
    ("NO_REPLY NO_REPLY\n\nHi", "Hi"),
    ("NO_REPLY\nNO_REPLY hi", None),  # only the separator after the last token counts
    ("no_reply\u00e9t\u00e9", "\u00e9t\u00e9"),  # a Unicode letter after the token
    ("NO_REPLY2 items", "2 items"),
    ("NO_REPLY hello", None),  # same line, not glued
    ("NO_REPLY: x", None),  # punctuation after the token
    ("NO_REPLY\n", None),  # nothing after the line break
    ("\nNO_REPLY hello", None),  # a line break before the token does not count
    ("hello NO_REPLY", None),
    ("NO_REPLY_x", None),  # "_" is neither letter nor digit
]


@pytest.mark.parametrize(("text", "expected"), LEADING)
def test_leading_token_removal(text: str, expected: str | None) -> None:
    assert strip_leading_token(text) == expected


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="_Nn oO rReEpPlLyY\nK\u212a", max_size=400),
    st.integers(0, 40_000),
    st.text(alphabet="_Nn oO rReEpPlLyY\nK\u212a", max_size=400),
    st.sampled_from(["NO_REPLY", "SILENCE", "a_b", "_", "OK"]),
)
@example("NO_REPLY", 0, "", "NO_REPLY")  # the token at the very start
@example("_" * 40, 40_000, "no_reply", "NO_REPLY")  # past 32 anchors, within the budget
def test_may_contain_token_says_false_only_when_the_token_is_not_there(
    head: str, filler: int, tail: str, token: str
) -> None:
    """The gate may answer True for a text without the token (the lower-casing fallback),
    never False for one with it, whatever the number of anchors against the text's size."""
    text = head + "x" * filler + tail
    there = ascii_lower(token) in ascii_lower(text)
    assert may_contain_token(text, token) or not there


@pytest.mark.pure_python(why="replaces a module function that compiled code binds early")
def test_a_long_text_with_a_few_anchors_is_not_lower_cased_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One anchor per KB is compared, not lower-cased whole (a megabyte reply with 400
    underscores was, at 3 ns a character)."""
    from richout.tags import silent

    text = ("snake_case " + "x" * 1100) * 300
    monkeypatch.setattr(silent, "_lowered_contains", lambda *_: pytest.fail("lower-cased"))
    assert not may_contain_token(text, "NO_REPLY")
    assert may_contain_token(text + "No_Reply", "NO_REPLY")


def test_may_contain_token_never_misses() -> None:
    assert may_contain_token("xx no_reply", "NO_REPLY")
    assert may_contain_token("_" * 100 + "No_Reply", "NO_REPLY")
    assert not may_contain_token("no reply", "NO_REPLY")
    assert may_contain_token("Silence", "SILENCE")
    assert may_contain_token("anything", "")


# --------------------------------------------------------------------------- the model

WS = JS_WS_CLASS
FLAGS = re.IGNORECASE | re.ASCII
NAME = r"(?:(?:antml:|mm:)?(?:thinking|think|thought)|antthinking)"


def _is_p(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def model_token_only(text: str, token: str) -> bool:
    t = re.escape(token)
    grammar = f"[{WS}]*{t}(?:[{WS}]+{t})*[{WS}]*"

    def full(s: str) -> bool:
        return bool(s) and re.fullmatch(grammar, s, FLAGS) is not None

    if full(text):
        return True
    s = js_trim(text)
    a, b = 0, len(s)
    while a < b and _is_p(s[a]):
        a += 1
    while b > 0 and _is_p(s[b - 1]):
        b -= 1
    return bool(text) and full(s[a:b] if a < b else "")


def _no_constants(name: str) -> None:
    raise ValueError(name)


def model_json(text: str, token: str) -> bool:
    s = js_trim(text)
    if token not in s:
        return False
    try:
        value = json.loads(s, parse_constant=_no_constants)
    except ValueError:
        return False
    if s.startswith('"') and s.endswith('"') and isinstance(value, str):
        return js_trim(value) == token
    if s.startswith("{") and s.endswith("}") and isinstance(value, dict):
        return list(value) == ["action"] and (
            isinstance(value["action"], str) and js_trim(value["action"]) == token
        )
    return False


def model_strip_final(y: str, token: str) -> str | None:
    out = js_trim(re.sub(f"(?:^|[{WS}*.]){re.escape(token)}[{WS}]*$", "", y, count=1, flags=FLAGS))
    return None if out == js_trim(y) else out


_SUBJ = (
    r"(?:i|i'll|i[{ws}]+will|i'm|i[{ws}]+am|we|we'll|we[{ws}]+will|the[{ws}]+assistant"
    r"|assistant|the[{ws}]+bot|bot|openclaw)"
)
_SCOPE = (
    r"(?:[{ws}]+(?:here|for[{ws}]+now|on[{ws}]+this"
    r"|in[{ws}]+this[{ws}]+(?:chat|thread|channel|conversation)))?"
)
_PRED = (
    r"(?:(?:will[{ws}]+)?(?:stay|remain|keep|be)[{ws}]+(?:quiet|silent)" + _SCOPE + r"|"
    r"(?:do[{ws}]+not|don't|dont|will[{ws}]+not|won't|would[{ws}]+not|should[{ws}]+not)"
    r"[{ws}]+(?:reply|respond)" + _SCOPE + r"|"
    r"(?:have|has)[{ws}]+nothing[{ws}]+(?:to|for)[{ws}]+(?:say|add|reply|respond))"
)
INTENT = re.compile(
    (r"[{ws}]*" + _SUBJ + r"[{ws}]+" + _PRED + r"[.!?]*[{ws}]*").format(ws=WS), FLAGS
)
CUE = re.compile(
    rf"(?<![A-Za-z0-9_])(?:(?:answer|here's|here[{WS}]+is|tell[{WS}]+them|you[{WS}]+"
    rf"(?:should|can|could|need|must)|please|try|use|send|service[{WS}]+is|resolved|retry|yes|sure)"
    r"(?![A-Za-z0-9_])|no,(?=[A-Za-z0-9_]))",
    FLAGS,
)
PLACEHOLDER = re.compile(
    rf"[{WS}]*(?:(?:internal|private)[{WS}]+)?(?:reasoning|thinking|thoughts?|analysis)"
    rf"(?:[{WS}]+notes?)?[{WS}]*",
    FLAGS,
)
CLOSED = re.compile(
    rf"[{WS}]*<[{WS}]*{NAME}(?![A-Za-z0-9_])[^<>]*>.*?<[{WS}]*/[{WS}]*{NAME}[{WS}]*>[{WS}]*",
    FLAGS | re.DOTALL,
)
OPEN = re.compile(rf"[{WS}]*<[{WS}]*{NAME}(?![A-Za-z0-9_])[^<>]*>", FLAGS)
PLAIN = re.compile(rf"(?:thinking|think|thought|analysis|reasoning)[{WS}]*:?[{WS}]*\n", FLAGS)


def model_variant_a(y: str, token: str) -> bool:
    w = model_strip_final(y, token)
    return w is not None and (not w or INTENT.fullmatch(w) is not None)


def model_variant_b(y: str, token: str) -> bool:
    w = model_strip_final(y, token)
    if w is None:
        return False
    if not w or INTENT.fullmatch(w):
        return True
    lines = [js_trim(x) for x in w.split("\n") if js_trim(x)]
    if len(lines) > 1 and INTENT.fullmatch(lines[-1]) and not CUE.search("\n".join(lines[:-1])):
        return True
    return PLACEHOLDER.fullmatch(w) is not None


def model_reasoning(text: str, token: str) -> bool:
    x = js_trim(text)
    if not x:
        return False
    y = x
    while (m := CLOSED.match(y)) is not None:
        y = y[m.end() :]
    if y != x:
        return model_token_only(y, token) or model_variant_a(y, token)
    m = OPEN.match(x)
    if m is not None:
        y = x[m.end() :]
        return model_token_only(y, token) or model_variant_b(y, token)
    m = PLAIN.match(x)
    if m is None:
        return False
    y = x[m.end() :]
    return model_token_only(y, token) or model_variant_b(y, token)


def model_is_silent(text: str, token: str) -> bool:
    return model_token_only(text, token) or model_json(text, token) or model_reasoning(text, token)


VOCAB = [
    "NO_REPLY",
    "no_reply",
    "No_Reply",
    "NO_REPL",
    " ",
    "  ",
    "\n",
    "\t",
    "\u00a0",
    "\r\n",
    ".",
    "*",
    "!",
    "?",
    "¿",
    "**",
    "_",
    "«",
    '"',
    "{",
    "}",
    ":",
    ",",
    '"action"',
    '" NO_REPLY "',
    "<think>",
    "</think>",
    "<thinking>",
    "</thinking>",
    "< think x=1 >",
    "</ think >",
    "<thinking>",
    "<mm:thought>",
    "<antthinking>",
    "</antthinking>",
    "<thinkx>",
    "<",
    ">",
    "/",
    "analysis",
    "thinking",
    "reasoning",
    "thought",
    "I",
    "i'll",
    "will",
    "not",
    "stay",
    "quiet",
    "silent",
    "here",
    "for now",
    "we",
    "don't",
    "reply",
    "the assistant",
    "have",
    "nothing",
    "to",
    "say",
    "answer",
    "please",
    "no,",
    "x",
    "yes",
    "here's",
    "you should",
    "internal",
    "notes",
    "🤐",
    "hello",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(VOCAB), max_size=14))
def test_scanners_agree_with_the_model(parts: list[str]) -> None:
    text = "".join(parts)
    assert is_silent(text) == model_is_silent(text, "NO_REPLY"), text


STRUCTURED = st.builds(
    lambda pre, blocks, body, sep, tail: pre + blocks + body + sep + tail,
    st.sampled_from(["", " ", "\n"]),
    st.sampled_from(
        [
            "",
            "<think>a</think>",
            "<think>a</think> <thinking>b</thinking>",
            "<think>",
            "analysis:\n",
        ]
    ),
    st.lists(
        st.sampled_from(
            ["I will stay quiet", "we won't reply here", "notes", "please", "thoughts", "x"]
        ),
        max_size=3,
    ).map("\n".join),
    st.sampled_from([" ", "\n", ".", "*", "", ". "]),
    st.sampled_from(["NO_REPLY", "no_reply  ", "NO_REPLY x", ""]),
)


@settings(max_examples=400, deadline=None)
@given(STRUCTURED)
def test_reasoning_shapes_agree_with_the_model(text: str) -> None:
    assert is_silent(text) == model_is_silent(text, "NO_REPLY"), text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(VOCAB), max_size=10),
    st.sampled_from(["NO_REPLY", "SILENCE", "HELP-QUIET", "[x]", "a.b"]),
)
def test_custom_tokens_agree_with_the_model(parts: list[str], token: str) -> None:
    text = "".join(parts).replace("NO_REPLY", token)
    assert is_silent(text, token) == model_is_silent(text, token), (text, token)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(["NO_REPLY", " NO_REPLY\n", "no_reply", "x", ""]),
    lambda kids: (
        st.lists(kids, max_size=3)
        | st.dictionaries(st.sampled_from(["action", "x", "Action"]), kids, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES, st.sampled_from([None, 0, 2]), st.sampled_from(["", " ", "\n"]), st.integers())
def test_json_texts_agree_with_the_model(
    value: object, indent: int | None, pad: str, cut: int
) -> None:
    text = pad + json.dumps(value, indent=indent) + pad
    assert is_silent(text) == model_is_silent(text, "NO_REPLY"), text
    # One character removed: mostly invalid JSON, which must be rejected the same way.
    k = cut % (len(text) + 1)
    broken = text[:k] + text[k + 1 :]
    assert is_silent(broken) == model_is_silent(broken, "NO_REPLY"), broken


def model_leading(text: str, token: str) -> str | None:
    t = re.escape(token)
    glued = False
    k = 0
    while (m := re.match(f"[{WS}]*(?:{t}[{WS}]+){{{k}}}{t}", text, FLAGS)) is not None:
        nxt = text[m.end() : m.end() + 1]
        glued = glued or (bool(nxt) and unicodedata.category(nxt)[0] in "LN")
        k += 1
    lead = re.match(f"[{WS}]*{t}((?:[{WS}]*{t})*)([{WS}]*)", text, FLAGS)
    if lead is None:
        return None
    if not glued and (not re.search(r"[\r\n]", lead.group(2)) or not js_ltrim(text[lead.end() :])):
        return None
    return js_trim(text[lead.end() :])


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["NO_REPLY", "no_reply", " ", "\n", "\r", "x", "é", "2", ":", "_"]),
        max_size=8,
    )
)
def test_leading_token_removal_agrees_with_the_model(parts: list[str]) -> None:
    text = "".join(parts)
    assert strip_leading_token(text) == model_leading(text, "NO_REPLY"), text


# --------------------------------------------------------------------------- hostile inputs

HOSTILE = [
    ("<think" * 50_000, False),
    ("<think>" * 50_000 + "NO_REPLY", False),  # ">" before the token: no final strip
    ("<think>x</think>" * 30_000 + "NO_REPLY", True),
    ("<think>" + "< / " * 50_000 + "NO_REPLY", False),
    ("<think>" + "<" + " " * 200_000 + "/think>NO_REPLY", True),
    ("." * 100_000 + "NO_REPLY" + "!" * 100_000, True),
    ("." * 100_000 + "NO_REPLY x" + "!" * 100_000, False),
    ("NO_REPLY " * 100_000, True),
    ("NO_REPLY " * 100_000 + "x", False),
    ("NO_REPLY" * 100_000, False),
    (" " * 200_000 + "NO_REPLY" + "\n" * 200_000, True),
    ("analysis:" + "\n" * 200_000 + "NO_REPLY", True),
    ("thinking" + " \n" * 100_000 + ":" + " " * 100_000 + "x NO_REPLY", False),
    ("{" * 100_000 + '"NO_REPLY"' + "}" * 100_000, True),  # brackets are punctuation
    ('"' + "\\\\" * 100_000 + 'NO_REPLY"', True),  # so are backslashes
    ('"' + "a" * 200_000 + "NO_REPLY", False),
    ("<think>x</think> " + "I " * 100_000 + "NO_REPLY", False),
    ("thinking\n" + "notes\n" * 50_000 + "I will stay quiet\nNO_REPLY", True),
    ("\ud800NO_REPLY\udfff", False),
    ("\x00NO_REPLY\x00", False),
    ("_" * 300_000, False),
]


@pytest.mark.parametrize(("text", "silent"), HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_inputs_get_an_answer(text: str, silent: bool) -> None:
    assert is_silent(text) is silent
    assert isinstance(is_silent_prefix(text), bool)
    assert strip_leading_token(text) is None or isinstance(strip_leading_token(text), str)
