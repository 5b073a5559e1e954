"""Every key of the reader in one table: the app binds from it, help and the palette list it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Key:
    keys: str  # Textual key names, comma separated
    action: str
    description: str
    footer: bool = False
    label: str = ""  # how help shows the keys, if not as bound
    priority: bool = False  # handled before the focused widget sees the key
    short: str = ""  # the footer's word for it, when the description is too long for 80 columns


APP_KEYS = [
    # priority: keys typed right after "/" must reach the box, not the list (see check_action)
    Key("slash", "focus_search", "Search", True, "/", priority=True),
    Key("b", "toggle_bookmark", "Bookmark", True),
    Key("B", "bookmarks_only", "Show bookmarks only (toggle)", True, short="Bookmarked"),
    # priority: the dialog opens before the next key is read, so that key lands in it
    Key("n", "edit_note", "Edit note", True, short="Note", priority=True),
    Key("y", "copy_abstract", "Copy abstract", True, short="Copy"),
    Key("Y", "copy_markdown", "Copy title, abstract and links as Markdown"),
    Key("o", "open_url", "Open the first link in the browser"),
    Key("u", "toggle_read", "Mark read / unread"),
    Key("t", "tag", "Add or remove a tag", priority=True),
    Key(
        "space",
        "toggle_select",
        "Select / unselect (b, t, u, +, - and E act on the selection)",
        label="Space",
    ),
    Key("v", "select_all", "Select every paper in the list (again: unselect them)"),
    Key("s", "cycle_sort", "Order: best match, file, title A-Z, recent, for you, new, upvotes"),
    Key("m", "more_like_this", "More like this paper"),
    Key("M", "like_bookmarks", "Papers like your bookmarks"),
    Key("C", "collections", "Collections: counts, and which to show"),
    Key("r", "toggle_raw", "Raw text / readable math"),
    Key("right_square_bracket", "next_hit", "Next highlighted word in the abstract", label="]"),
    Key("left_square_bracket", "previous_hit", "Previous highlighted word", label="["),
    Key("E", "export", "Export bookmarks, a tag, the selection or the results", priority=True),
    Key("plus", "like_next", "Like the paper and go to the next (teaches 'for you')", label="+"),
    Key("minus", "skip_next", "Skip the paper and go to the next (teaches 'for you')", label="-"),
    Key("U", "undo_answer", "Take back the last like or skip (of this session)"),
    Key("A", "ask_me", "Ask me: the papers the model is least sure about"),
    Key("O", "overview", "Overview: counts, plots, distinctive terms and topics"),
    Key("R", "fetch", "Fetch the subscriptions (papertui fetch --subscribe SOURCE); new marked +"),
    Key("greater_than_sign", "widen_list", "Widen the list (remembered)", label=">"),
    Key("less_than_sign", "narrow_list", "Narrow the list (remembered)", label="<"),
    Key("z", "list_only", "List only / list and detail (remembered)"),
    Key("tab", "switch_pane", "Switch between list and detail pane", label="Tab"),
    Key(
        "escape",
        "clear_search",
        "Back one layer: selection, view, topic, query, filters",
        label="Esc",
    ),
    Key("question_mark", "help", "Help", True, "?"),
    Key("q", "quit", "Quit", True),
]

# the orders `s` cycles through, by the name the status line shows
SORT_NAMES = {
    "relevance": "best match",
    "corpus": "file order",
    "title": "title A-Z",
    "recent": "recently bookmarked or noted",
    "foryou": "for you",
    "new": "new first, then for you",
    "upvotes": "most upvoted",
}

# actions reached from the command palette (ctrl+p) only
PALETTE = [
    ("add_seeds", "Like the papers of a file you have (.bib, .json): seeds for 'for you'"),
    ("add_negative_keyword", "Add (or -remove) a negative keyword: its papers sink in 'for you'"),
    ("reset_feedback", "Forget every like, skip and seed: 'for you' starts over"),
]

LIST_KEYS = [
    ("j / k, ↓ / ↑", "next / previous paper (in the detail pane: scroll)"),
    ("g / G, Home / End", "first / last paper"),
    ("PgDn / PgUp, ctrl+f / ctrl+b", "page down / up"),
    ("5j, 3k, 12G", "a count: move that many; before g or G, to that row"),
    ("Space (detail pane)", "page down in the abstract"),
    ("Enter (list)", "read the paper: the detail pane takes the keys (shown again after z)"),
    ("Esc (detail pane)", "back to the list (list only again if Enter showed the detail)"),
    ("mouse", "click a row to open it; the wheel scrolls, the cursor comes along"),
]

SEARCH_KEYS = [
    ("/", "type a query; results update as you type"),
    ("Enter", "go to the results, keeping the query"),
    ("Esc", "clear the query: back on the paper you searched from (or the one you chose)"),
    ("Esc (list)", "peel one layer: selection, query, similar view, bookmarks only, collections"),
    ("", "and land on the paper and screen row you left that list on"),
    ("s (searching)", "a new search is best match first; s orders this search only"),
]

EDITOR_KEYS = [
    ("ctrl+s", "save the note"),
    ("ctrl+↑ / ctrl+↓", "scroll the abstract shown above the note"),
    ("Esc", "cancel (asks before dropping changes)"),
    ("ctrl+p", "command palette: every action by name"),
    ("Tab (a file name box)", "complete the path, as a shell does"),
]


def help_sections() -> list[tuple[str, list[tuple[str, str]]]]:
    app_rows = [(k.label or k.keys, k.description) for k in APP_KEYS]
    palette_rows = [("ctrl+p", description) for _action, description in PALETTE]
    return [
        ("Keys", app_rows),
        ("Command palette only", palette_rows),
        ("Moving", LIST_KEYS),
        ("Search box", SEARCH_KEYS),
        ("Note editor and palette", EDITOR_KEYS),
    ]
