"""Words of tool search: splitting identifiers, stemming, stopwords and synonyms.

Tools are named by developers (``git_status``, ``createPullRequest``) and asked for by people
("show me what changed", "open a ticket"). This module brings both to the same terms: it
splits identifiers, strips inflections, drops filler words, and knows the synonyms of the
actions and objects tools deal with, so a paraphrase can meet a tool name.
"""

from __future__ import annotations

import re
from functools import lru_cache

# One pass over the text: upper-case runs before a capitalised word (HTTP|Response),
# capitalised or lower-case words (create|Pull|request), upper-case runs, digit runs.
# Letters beyond ASCII count as lower case, so "Größe" and "café" stay whole words.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[^\W\d_A-Z]+|[A-Z]+|[0-9]+")

STOPWORDS = frozenset(
    "a about all an and any are as at be been being by can could do does for from has have "
    "how i if in into is it its just let me my of on or our please should so some than that "
    "the their them then there these this those to up us via want was we what when where "
    "which who will with would you your".split()
)
# Not here: the verbs tools are named for ("get_dashboard", "give_feedback", "use_profile").
# "get the dashboard" asks for get_dashboard rather than list_dashboards; keeping "get",
# "give", "use" and "using" as words measured better on every request set of
# benchmarks/search, held-out servers and never-tuned-on requests included (issue 17).

# Groups of words people use interchangeably for what tools do and what they act on. Each
# word of a group stands for every other (after stemming); keep groups tight: a loose group
# costs precision everywhere.
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    # actions
    ("get", "fetch", "retrieve", "read", "obtain", "show", "view", "display", "lookup"),
    ("list", "enumerate", "browse"),
    ("search", "find", "query", "lookup", "locate", "look"),
    ("create", "make", "add", "new", "open", "start", "insert", "generate", "build", "setup"),
    ("delete", "remove", "erase", "destroy", "drop", "discard", "trash", "purge"),
    ("update", "edit", "modify", "change", "set", "patch", "alter", "rename"),
    ("write", "save", "store", "put", "persist", "record"),
    ("run", "execute", "invoke", "trigger", "launch", "call", "perform"),
    ("stop", "cancel", "kill", "terminate", "abort", "halt", "end"),
    ("send", "post", "message", "notify", "publish", "dm"),
    ("reply", "respond", "answer"),
    ("close", "resolve", "complete", "finish", "done", "tick"),
    ("download", "export", "dump", "save"),
    ("upload", "import", "attach"),
    ("copy", "duplicate", "clone", "fork"),
    ("move", "rename", "relocate", "transfer"),
    ("summarize", "summary", "overview", "digest", "tldr"),
    ("navigate", "visit", "goto", "open", "load"),
    ("screenshot", "capture", "snapshot"),
    ("click", "press", "tap"),
    ("type", "fill", "enter", "input"),
    ("undo", "revert", "rollback", "reset", "restore"),
    ("schedule", "book", "plan"),
    ("assign", "allocate", "delegate"),
    ("count", "total", "tally"),
    ("compare", "diff", "difference", "change"),
    ("translate", "convert", "transform"),
    ("check", "verify", "validate", "test", "health", "status"),
    ("mute", "silence", "quiet", "snooze", "downtime"),
    ("enable", "activate"),
    ("disable", "deactivate"),
    ("approve", "accept", "confirm"),
    ("install", "deploy", "setup"),
    # things
    ("issue", "ticket", "bug", "task", "story", "card"),
    ("todo", "task", "item", "chore"),
    ("repository", "repo", "project", "codebase"),
    ("directory", "folder", "dir", "path"),
    ("file", "document", "doc"),
    ("pr", "pull", "merge"),
    ("branch", "ref"),
    ("commit", "revision", "changeset", "sha"),
    ("message", "chat", "conversation", "dm"),
    ("thread", "replies", "reply"),
    ("channel", "room"),
    ("email", "mail", "inbox", "gmail"),
    ("calendar", "event", "meeting", "appointment", "invite"),
    ("person", "user", "people", "member", "contact", "someone", "account"),
    ("team", "group", "org", "organization"),
    ("permission", "access", "allowed", "permitted", "authorized", "role", "policy"),
    ("alert", "alarm", "incident", "oncall", "pager"),
    ("log", "logs", "trace"),
    ("metric", "metrics", "measurement", "stat", "statistics", "gauge"),
    ("dashboard", "panel", "board"),
    ("board", "kanban"),
    ("chart", "graph", "plot", "diagram", "visualize", "visualization", "draw"),
    ("table", "sheet", "spreadsheet", "grid", "worksheet"),
    ("cell", "range"),
    ("slide", "deck", "presentation", "powerpoint", "ppt"),
    ("page", "webpage", "site", "website", "tab", "url", "link"),
    ("browser", "chrome", "headless"),
    ("script", "javascript", "js", "code", "evaluate"),
    ("note", "notes", "journal", "memo", "entry"),
    ("memory", "memorize", "remember", "knowledge", "entity", "entities"),
    ("database", "db", "sql"),
    ("record", "row", "document", "entry", "item"),
    ("vector", "embedding", "semantic", "similar", "similarity"),
    ("price", "pricing", "cost", "quote", "fee", "charge"),
    ("payment", "charge", "pay", "transaction"),
    ("refund", "reimburse", "reimbursement"),
    ("invoice", "bill", "billing", "receipt"),
    ("customer", "client", "buyer"),
    ("stock", "ticker", "share", "equity", "market"),
    ("crypto", "bitcoin", "btc", "coin"),
    ("order", "trade", "buy", "sell"),
    ("account", "balance", "cash", "funds", "wallet"),
    ("time", "clock", "hour", "now", "date", "timezone"),
    ("weather", "forecast", "temperature"),
    ("location", "place", "address", "near", "nearby", "map", "maps"),
    ("geocode", "coordinates", "latitude", "longitude", "lat", "lng"),
    ("route", "directions", "navigation", "travel", "distance"),
    ("flag", "toggle", "feature", "switch"),
    ("mock", "fake", "stub", "canned"),
    ("container", "pod", "docker"),
    ("cluster", "kubernetes", "k8s", "kubectl"),
    ("worker", "function", "lambda", "serverless"),
    ("bucket", "storage", "blob", "object"),
    ("secret", "credential", "token", "key", "password"),
    ("comment", "remark", "feedback", "review"),
    ("wiki", "confluence", "article"),
    ("paper", "article", "publication", "preprint", "arxiv"),
    ("encyclopedia", "wikipedia", "wiki"),
    ("video", "screencast", "recording"),
    ("phone", "mobile", "device", "emulate", "emulation"),
    ("popup", "dialog", "modal", "alert", "prompt"),
    ("light", "lights", "lamp", "switch", "device"),
    ("hierarchy", "tree", "structure", "nested"),
    ("free", "busy", "availability", "available", "freebusy"),
    ("worklog", "timesheet", "logged", "spent"),
)


def stem(word: str) -> str:
    """A light suffix stripper: "files" meets "file", "listing" meets "list", and
    "create", "creates" and "created" meet at "creat"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    for suffix in ("ing", "ed", "s"):
        if len(word) - len(suffix) >= 3 and word.endswith(suffix) and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def words(text: str) -> list[str]:
    """Split prose and identifiers (camelCase, snake_case, kebab-case, digits) into words."""
    return " ".join(_WORD.findall(text)).lower().split()


def terms(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """The index terms of a text: its words, stemmed, without filler words."""
    return list(_terms(text, keep_stopwords))


@lru_cache(maxsize=65536)
def _terms(text: str, keep_stopwords: bool) -> tuple[str, ...]:
    # Memoised: catalogs repeat parameter names and descriptions ("owner", "Page number")
    # across tools, and notebooks re-register the same tools again and again.
    return tuple(stem(w) for w in words(text) if keep_stopwords or w not in STOPWORDS)


def _synonym_table() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        stems = {stem(word) for word in group}
        for term in stems:
            table.setdefault(term, set()).update(stems - {term})
    return {term: frozenset(others) for term, others in table.items()}


SYNONYMS: dict[str, frozenset[str]] = _synonym_table()


def synonyms(term: str) -> frozenset[str]:
    """Stemmed terms that mean the same as a stemmed term (not including itself)."""
    return SYNONYMS.get(term, frozenset())


def edit_distance_at_most_one(a: str, b: str) -> bool:
    """Whether one insertion, deletion, substitution or swap turns ``a`` into ``b``."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        rest_equal = a[i + 1 :] == b[i + 1 :]
        swapped = a[i : i + 2] == b[i : i + 2][::-1] and a[i + 2 :] == b[i + 2 :]
        return rest_equal or swapped
    return a[i:] == b[i + 1 :]


def deletions(term: str) -> set[str]:
    """The term with each single character removed (keys of a typo index)."""
    return {term[:i] + term[i + 1 :] for i in range(len(term))}


def swaps(term: str) -> set[str]:
    """The term with each pair of neighbouring characters swapped."""
    return {term[:i] + term[i + 1] + term[i] + term[i + 2 :] for i in range(len(term) - 1)}
