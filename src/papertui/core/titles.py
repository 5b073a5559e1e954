"""Derive a scannable title from an untitled abstract.

Dumps carry no titles. A real title names the method a paper introduces and says in a few words
what it is or what the paper does ("LegendreTron: learning proper canonical losses ..."), so:

1. clean the text: LaTeX rendered or dropped (`{\\sc X}` -> X), control characters removed;
2. find the contribution sentence ("we propose", "this paper studies", "we aim to") and take the
   phrase after its verb: what is proposed or studied;
3. find the method's name in the shapes abstracts use (`{\\sc X}`, "dubbed X", "we propose X, a
   ...", "Expanded Name (X)", "our X", a name repeated through the abstract), preferring names
   met in the contribution sentence and never a field's acronym ("federated learning (FL)");
4. compress the phrase like a title: no lead-in, article, "novel", parenthesis or relative
   clause; "to learn X" -> "Learning X"; cut at a phrase boundary to fit 80 characters (never
   after "the", "of", "for"), with an ellipsis only when no boundary is left.

The title is a pure function of the abstract text (the list derives titles lazily and the index
build caches them: both must agree). Regexes start with a literal character where they can:
Python's engine scans for it fast, which keeps a title near 100 µs.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from papertui.core.mathtext import render
from papertui.core.text import cut_words

MAX_TITLE = 80
TOPIC_MIN = 3
KEEP = 0.6
EMPTY = "(empty abstract)"


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# --- cleaning -------------------------------------------------------------------------------

_CONTROL = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffc\ufffd]"
)
_FONT_GROUP = re.compile(r"\{\\(?:sc|bf|it|em|tt|rm|sf|sl|textsc)\s+([^{}]*)\}")
_TEXT_CMD = re.compile(
    r"\\(?:textsc|textbf|textit|texttt|textrm|textsf|emph|text|mathrm|mathsf|mathtt|mbox)\s*"
    r"\{([^{}]*)\}"
)
_TAG = re.compile(r"</?[A-Za-z][^<>]{0,400}>")
_LEFTOVER_CMD = re.compile(r"\\[A-Za-z]+\*?\s*|\\")


def _clean(abstract: str) -> str:
    """Plain single-spaced text with a leading space, so every word follows a space."""
    text = abstract[:4000]
    if not (text.isascii() and text.isprintable()):
        text = _CONTROL.sub("", text)
    if "\\" in text or "$" in text or "{" in text:
        text = _FONT_GROUP.sub(r"\1", text)
        text = _TEXT_CMD.sub(r"\1", text)
        if "$" in text or "\\" in text:
            text = render(text)[0]
        text = _LEFTOVER_CMD.sub("", text)
        text = text.replace("{", "").replace("}", "").replace("$", "")
    if "<" in text:  # MathML and HTML tags some proceedings leave in abstracts
        text = _TAG.sub("", text)
    if "*" in text:  # markdown emphasis
        text = text.replace("*", "")
    if "`" in text or "''" in text:  # TeX quotes: ``view''
        text = text.replace("``", '"').replace("''", '"').replace("`", "'")
    if "." in text:
        text = _RUN_ON.sub(". ", text)
    return " " + " ".join(text.split())


# A sentence ends at . ! ? before a capital, digit, quote or bracket.
_SENTENCE_END = re.compile(
    r"[.!?](?= [A-Z0-9\"'(\[“])(?<!et al\.)(?<!e\.g\.)(?<!i\.e\.)(?<! cf\.)(?<! vs\.)"
)
# "... problems.In this work, we ...": a sentence run into the next
_RUN_ON = re.compile(r"\.(?<=[a-z]{2}\.)(?=(?:In|We|This|Our|Here|To) )")

# --- the contribution phrase ----------------------------------------------------------------

_VERBS = {
    # verb -> how surely its sentence states the paper's contribution
    "propose": 5.0,
    "introduce": 5.0,
    "present": 4.5,
    "develop": 4.5,
    "design": 4.0,
    "devise": 4.0,
    "formulate": 3.5,
    "put forward": 4.0,
    "offer": 3.0,
    "build": 3.0,
    "construct": 3.0,
    "create": 3.0,
    "study": 4.0,
    "studies": 4.0,
    "studied": 4.0,
    "investigate": 4.0,
    "consider": 3.5,
    "address": 3.5,
    "tackle": 3.5,
    "explore": 3.5,
    "examine": 3.5,
    "analyze": 3.5,
    "analyse": 3.5,
    "revisit": 4.0,
    "focus on": 3.5,
    "provide": 3.0,
    "derive": 3.0,
    "establish": 3.0,
    "extend": 3.0,
    "characterize": 3.0,
    "leverage": 2.5,
    "describe": 3.0,
    "pursue": 2.5,
    "initiate": 3.0,
    "prove": 2.0,
    "show": 1.5,
    "demonstrate": 1.5,
    "seek": 3.5,
    "identify": 2.0,
    "bridge": 2.5,
    "rethink": 3.5,
    "learn": 2.5,
    "improve": 2.0,
}
_VERB_ALT = "|".join(sorted((re.escape(v) for v in _VERBS), key=len, reverse=True))
_CUE = re.compile(
    r" [WwTtOo](?:e|his (?:paper|work|study|article|note|letter|thesis)|ur (?:work|paper|study))"
    r"(?:,[^,]{1,40},)?(?: (?:also|further|first|then|here|now|instead|thus|therefore|hence|"
    r"[a-z]+ly))? (?:(aim|seek|attempt|set out|try|wish|strive|want) (?=to [a-z])|"
    r"(?:(?:can|will|are able to|need to) )?(" + _VERB_ALT + r")(?:s|es|d|ed)?\b"
    r"(?: (?:that|how|whether|why) )?)"
)


def _contributions(text: str, ends: list[int]) -> list[tuple[float, int, int, int]]:
    """(weight, sentence start, phrase start, phrase end) of the sentences that may state the
    paper's contribution, best first: the verb's weight, less a little for every sentence before
    it. A cue inside a definition ("Inverse design, where we seek to ...") says what a field does,
    not what the paper does: it weighs little."""
    found: list[tuple[float, int, int, int]] = []
    seen: set[int] = set()
    for m in _CUE.finditer(text):
        index = bisect_right(ends, m.start())
        if index in seen or index >= 14:
            continue
        seen.add(index)
        end = ends[index] if index < len(ends) else len(text)
        if end - m.end() < 12:
            continue
        verb = "seek" if m.group(1) else m.group(2).lower()  # "we aim to X": the phrase is "to X"
        weight = _VERBS.get(verb, 2.0) - index * 0.15
        start = ends[index - 1] + 1 if index else 0
        if text[max(start, m.start() - 7) : m.start()].endswith((", where", " where", " which")):
            weight -= 3.0
        found.append((weight, start, m.end(), end))
    found.sort(key=lambda c: -c[0])
    return found


# --- names ----------------------------------------------------------------------------------

# Name-shaped: an inner capital (NoProp, LiDAR), two capitals in a row (GRAPE) or a digit before
# a capital (3D). "Dual-Conditional" is not: its capitals only start words.
_SHAPE = re.compile(r"[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z])")

# Acronyms of fields, tools and data sets: they may appear in a title but never lead it.
_GENERIC = _wordset(
    """
    AI ML NLP CV RL DL IR QA VQA LLM VLM LM MLLM CNN RNN GNN DNN MLP GAN VAE ViT BERT GPT CLIP
    NeRF SGD GD ODE PDE SDE MDP POMDP PAC KL IID SOTA GPU CPU TPU API RGB RGBD RGB-D 2D 3D 4D 6D
    6DoF 6-DoF LiDAR SLAM SDF IoU mAP FID PSNR SSIM HDR UV ImageNet COCO CIFAR MNIST KITTI SVM
    PCA EM MCMC MAP MLE ELBO OOD ID IoT AR VR XR ReLU LSTM DP US UK EU TV FPS NN CT MRI FL OT TS
    II III IV OK ERM SSL MAE MIM NAS TD DQN PPO SAC GCN GCL ViTs AUC ROC RMSE MSE BEV VLP BN LN
    EEG ECG FLOPs FLOP SNR LDP GP GPs ICL CoT DETR ResNet MoE SAM SVD QP LP CLT NTK
    """
)
# Words that name what follows: "dubbed X", "we call it X", "referred to as X".
_CALLED_WORDS = _wordset("called named termed dubbed coined namely call term dub name")
_CALLED_AS = _wordset("denoted referred short known")
# Verbs that introduce the paper's own method: "we propose X, a ...".
_INTRO_WORDS = frozenset(
    f"{verb}{end}"
    for verb in _wordset(
        "propose introduce present develop design build create construct release devise "
        "contribute offer"
    )
    for end in ("", "s", "d", "ed")
)
_INTRO_SKIP = _wordset("our the a an new novel simple")
# What may follow a name the paper introduces: punctuation or a clause ("X, a ...", "X that").
_INTRO_NEXT = _wordset(
    "which that as is to for with by model framework method network architecture - – —"
)
_SUBJECT_VERBS = _wordset(
    """
    is achieves outperforms consists uses learns enables leverages can improves performs employs
    exploits combines introduces provides builds relies yields attains establishes sets reaches
    surpasses generates produces also further then consistently significantly thus
    """
)
# Candidate names: a capital or a digit first ("GeoMAE", "3D", "3Mformer"); Python's engine scans
# for the first character fast. Lower-case names ("dugMatting") are met in parentheses.
# Only a name-shaped word or one followed by punctuation ("we present Painter, a ...") can be a
# name: the others (a sentence's first word) are skipped by the regex engine, not by Python.
_CANDIDATE = re.compile(
    r"[A-Z0-9](?=[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z])|[A-Za-z0-9]*(?:[-+@][A-Za-z0-9]+)*\+*"
    r"[^ A-Za-z0-9+@-])[A-Za-z0-9]*(?:[-+@][A-Za-z0-9]+)*\+*"
)
_LOWER_PAREN = re.compile(r"\(([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)\)")
_REPO = re.compile(r"github\.com/[^/ ]+/([A-Za-z0-9][A-Za-z0-9.+-]*[A-Za-z0-9+])(?![\w/])")
_NOT_NAMES = _wordset(
    "A An The Our This These That It We In On To For With Its Their One Two Such Each Both "
    "Here There Then Thus However Moreover Specifically"
)


def _offerable(token: str) -> bool:
    return (
        len(token) >= 2
        and token not in _GENERIC
        and token.rstrip("s") not in _GENERIC
        and not token.isdigit()
    )


def _expands(words: list[str], acronym: str) -> bool:
    return _expansion(words, acronym) > 0


def _expansion(words: list[str], acronym: str) -> int:
    """How many of the last few `words` spell out `acronym` (0: none): "deep diffusion-based
    generative replay" -> DDGR (the initials of words and hyphen parts, in order); "decomposed-
    uncertainty-guided matting" -> dugMatting (its first letter and its capitals)."""
    letters = [c.lower() for i, c in enumerate(acronym) if c.isupper() or i == 0]
    if len(letters) < 2 or not words:
        return 0
    for k in range(1, min(len(words), len(letters) + 2) + 1):
        if words[-k][:1].lower() != letters[0]:
            continue
        initials = "".join(part[:1].lower() for w in words[-k:] for part in w.split("-") if part)
        it = iter(initials)
        if all(c in it for c in letters):
            return k
    return 0


def _find_name(text: str, cue: tuple[int, int, int] | None, counts: dict[str, int]) -> str | None:
    """The name of the paper's own method, if it introduces one.

    One scan over the capitalised words; each is judged by the few words around it: "called X",
    "we propose X, a", "our X", "X achieves", "Expanded Name (X)", or repeated through the text.
    `counts` receives how often each name-shaped word occurs (the caller reuses it)."""
    lo, hi = (cue[0], cue[2]) if cue else (-1, -1)
    scores: dict[str, float] = {}
    background: set[str] = set()
    size = len(text)

    def offer(token: str, score: float, at: int) -> None:
        if lo <= at <= hi:
            score += 2.0  # met in the contribution sentence
        if score > scores.get(token, 0.0):
            scores[token] = score

    for m in _CANDIDATE.finditer(text):
        token = m.group()
        start, end = m.span()
        after = text[end] if end < size else ""
        if after == "-":  # "GeoMAE-based": the scan stops before a trailing hyphen
            continue
        shaped = _SHAPE.match(token) is not None
        if shaped:
            counts[token] = counts.get(token, 0) + 1
        elif after == " " or after == "" or token in _NOT_NAMES or len(token) < 3:
            # a capitalised word followed by a space is a sentence's first word, not a name
            # ("we present Painter, a ..." is)
            continue
        if not _offerable(token):
            continue
        before = text[start - 1] if start else " "
        if before == "(":
            if after != ")" or not shaped:
                continue
            words = text[max(0, start - 80) : start - 2].split()
            if _expands(words, token):
                # "Path-Augmented Method (PAM)" names a method, and so does any expansion in the
                # contribution sentence; "federated learning (FL)" elsewhere names a field, and
                # so does an expansion met before the contribution sentence ("Inverse
                # reinforcement learning (IRL) offers ...": another field or paper's name)
                if 0 <= start < lo:
                    background.add(token)
                offer(token, 5.0 if lo <= start <= hi else 1.5 + words[-1][0].isupper(), start)
            elif words and (words[-1][:1].isupper() or not token.isupper()):
                # "Our image diffusion model (SinFusion)": a CamelCase name, not an acronym
                offer(token, 1.5 if token.isupper() else 4.0, start)
            continue
        words = text[max(0, start - 40) : start].split()[-4:]
        if not words:
            continue
        last = words[-1].strip("\"'“").lower()
        if (
            last in _CALLED_WORDS
            or (last == "as" and len(words) > 1 and words[-2] in _CALLED_AS)
            or (last == "it" and len(words) > 1 and words[-2] == "call")
        ):
            offer(token, 10.0 if shaped else 7.0, start)
            continue
        i = len(words) - 1
        while i > 0 and words[i].lower() in _INTRO_SKIP:
            i -= 1
        if words[i] in _INTRO_WORDS and (
            after in ",:;("
            or (nxt := text[end + 1 : end + 13].split(" ", 1)[0]) in _INTRO_NEXT
            or nxt[:1] == "("
        ):
            offer(token, 8.0 if shaped else 6.0, start)
            continue
        if not shaped:
            continue
        if last == "our":
            offer(token, 4.0, start)
        elif words[-1][-1:] in ".!?" and text[end + 1 : end + 16].split(" ", 1)[0] in (
            _SUBJECT_VERBS
        ):
            offer(token, 3.0, start)
    if "(" in text:
        for m in _LOWER_PAREN.finditer(text):
            token = m.group(1)
            words = text[max(0, m.start() - 80) : m.start()].split()
            if _expands(words, token):
                offer(token, 5.0, m.start())
                counts[token] = counts.get(token, 0) + 1
    if "github.com/" in text:
        for m in _REPO.finditer(text):
            token = m.group(1).removesuffix(".git")
            if _SHAPE.match(token) and _offerable(token):
                offer(token, 6.0, -2)
    for token in ("2D", "3D", "4D"):  # "3D-aware", "3D." as well
        if token in counts or f" {token}" in text:
            counts[token] = text.count(f" {token}")
    for token, count in counts.items():
        if count >= 2 and _offerable(token):
            offer(token, 1.5, -2)
    for token in background:
        if scores.get(token, 0.0) < 6.0:  # only "called X" or "we propose X, a" outweighs it
            del scores[token]
    if not scores:
        return None
    ranked = {t: s + min(text.count(t), 6) * 0.5 for t, s in scores.items()}
    token = max(ranked, key=ranked.__getitem__)
    return token if ranked[token] >= 3.0 else None


# --- compression ----------------------------------------------------------------------------

_PAREN = re.compile(r" \([^()]*\)| \[[^\[\]]*\]")
# Where a title-like phrase ends: a relative or subordinate clause, a second main verb.
_CLAUSE = re.compile(
    r"[;:] | [–—-]+ |, (?:a|an) |,? (?:which|where|whereby|whose|while|thereby|so that|such that|"
    r"in order to|i\.e\.|e\.g\.|in which|and thus|and hence|and therefore|(?:that|which),|"
    r"as well as|resulting in|leading to|namely|"
    r"i\.e|e\.g)\b|, (?:and )?(?:we|it|our|this|these|they|thus|then|showing|demonstrating|"
    r"allowing|enabling|achieving|yielding|making|providing|including|and|but|or|as|"
    r"with|to)\b| and (?:we )?(?:show|demonstrate|prove|evaluate|achieve|validate|apply|provide|"
    r"obtain|establish|derive|find|conduct|compare|use|then|empirically|experimentally|"
    r"theoretically|extensive|further|also|analyze|analyse|study|test|verify|illustrate|"
    r"discuss|introduce|propose|present|develop|design)\b"
)
_LEAD = re.compile(
    r"^(?:(?:a|an|the|our|this|these|two|three|several|some|first|new) )?"
    r"(?:(?:novel|new|simple|simple yet effective|simple but effective|effective|generic|"
    r"first|general|principled|straightforward|elegant|lightweight|powerful|practical|"
    r"flexible|versatile|concise|intuitive|innovative|conceptually simple|highly|"
    r"yet|surprisingly|very|more|comprehensive|thorough|carefully designed)(?:,| and)? )*"
    r"(?:(?:problem|task|question|challenge|issue|setting|study|notion|idea|concept) of )?",
    re.IGNORECASE,
)
_NOVEL = re.compile(r" (?:novel|new|simple yet effective|simple but effective) ")
_GERUND_DOUBLE = _wordset(
    "get set run map plan stop put cut drop fit let swap split ship trim "
    "scan tag pin chat plug step"
)
_FUNCTION = _wordset(
    """
    a an the of for and or in on to with by from via using under over at as into onto than that
    this these those its it their our we which where when while whose is are be been being was
    were has have had can may might will would should could do does did not no nor but so such
    both either neither each every any all some between among within without across through
    toward towards against about above below beyond upon if then thus also very more most less
    new novel how what why whether based i.e. e.g. one two its whereas yet
    """
)


# Head nouns that say nothing about the paper ("a method for X"): dropped, the rest reads as a
# title.
_HEADS = (
    r"(?:method|methods|framework|approach|algorithm|algorithms|technique|techniques|scheme|"
    r"strategy|strategies|module|paradigm|mechanism|solution|procedure|methodology|recipe|"
    r"pipeline|system)"
)
# "method that jointly learns X" -> "learning X"
# Head nouns that name no content of their own: "an alternative that avoids X", "a new perspective
# that casts X as Y", "a class of smooth mixture transformations".
_VAGUE = (
    r"(?:alternative|improvement|perspective|view|viewpoint|variant|extension|generalization|"
    r"generalisation|way|idea|notion|tool|model|architecture|formulation|treatment|lens)"
)
_VAGUE_WORDS = _wordset(
    "alternative improvement perspective view viewpoint variant extension generalization "
    "generalisation way idea notion class family set kind type variety suite collection series "
    "range number lot such this these that those it they remark application setting advantages "
    "feasibility possibility ability question problem answer"
)
_HEAD_THAT = re.compile(
    r"^(?:" + _HEADS + "|" + _VAGUE + r"),? (?:that|which) (?:[a-z]+ly )?([a-z]+)s "
)
_HEAD_OF = re.compile(
    r"^(?:(?:broad|large|wide|rich|new|general|whole) )?(?:class|family|set|kind|type|variety|"
    r"suite|collection|series|range|number|perspective|view|lens) (?:of|on) (?!the |a |an |it )",
    re.IGNORECASE,
)
_IN_THIS_PAPER = re.compile(
    r"^(?:in this (?:paper|work|article|note|study|letter)|here|herein|for the first time),? ",
    re.IGNORECASE,
)
# "which does not rely on X" -> "without X"
_WITHOUT = re.compile(
    r",? (?:which|that) (?:does|do) not (?:rely on|use|require|need|involve|depend on)"
    r" (?:either |any )?"
)
_HEAD_LEAD = re.compile(r"^" + _HEADS + r",? (?:(?:for|of) |(?=to [a-z]+ ))", re.IGNORECASE)
_HEAD_INNER = re.compile(
    r" ([a-z0-9-]+) "
    + _HEADS
    + r"\b(?=,? (?:for|to|that|of|which|with|based|in|on|by|using|via)\b|$)"
)
# "unified framework for X" keeps its head: without it the adjective would dangle
_ADJECTIVE_ENDS = ("ed", "ive", "al", "ic", "ent", "ant", "ful", "ous", "able", "ible", "ary")


def _drop_head(m: re.Match[str]) -> str:
    word = m.group(1)
    if word in _FUNCTION or word.endswith(_ADJECTIVE_ENDS):
        return m.group(0)
    return f" {word}"


def _gerund(verb: str) -> str:
    """ "learn" -> "learning", "make" -> "making", "map" -> "mapping"."""
    if verb in _GERUND_DOUBLE:
        return verb + verb[-1] + "ing"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    return verb + "ing"


def _drop_name(phrase: str, name: str) -> str:
    """Take the name out of the phrase: "X, a method for ..." -> "method for ...",
    "a method called X for ..." -> "method for ..."."""
    at = phrase.find(name)
    if at < 0:
        return phrase
    head = phrase[:at].rstrip(" \"'“")
    tail = phrase[at + len(name) :].lstrip("\"'”")
    for word in (
        " called",
        " named",
        " termed",
        " dubbed",
        " coined",
        " namely",
        " call",
        " call it",
        " as",
    ):
        if head.endswith(word):
            head = head[: -len(word)].rstrip(" ,")
            break
    tail = _PAREN.sub("", tail, count=1) if tail.startswith((" (", "(")) else tail
    tail = tail.lstrip(" ,:;–—-")
    for word in ("as ", "is ", "which is "):
        if tail.startswith(word):
            tail = tail[len(word) :]
    if len(head.split()) >= 1 and head.strip() not in ("", "a", "an", "the", "our"):
        return f"{head} {tail}".strip() if not tail.startswith(("a ", "an ", "the ")) else head
    return tail


# "a novel method called Source Prompt Disentangled Inversion": the naming head says nothing
_NAMING = re.compile(
    r"^(?:[A-Za-z-]+ ){1,5}?(?:called|termed|named|dubbed|coined|(?:that|which) we (?:call|term|"
    r"name|dub)|we call)\s+(?=[A-Z\"'“])"
)
_QUOTED = re.compile(r"[\"'“]([^\"'”]{2,60})[\"'”]")
# "... avoids this constraint by learning X": the means says what the pointer does not
_BY_GERUND = re.compile(r"\b(?:this|these|those|such|them)\b.*? by ([a-z]+ing .*)$")
_USED_TO = re.compile(
    r"^([\w -]{3,60}?) (?:can|could|may) be (?:used|applied|leveraged|employed|adapted) to "
    r"([a-z]+) (.+)$"
)
# "to solve these PDE inverse problems": the pointer goes, the noun phrase stays
_POINTER_DET = re.compile(r" (?:these|those|such) (?!as\b|that\b)(?=[\w-]+ [\w-]+)")
# ", closely related to several used in practice,": an aside between a noun and its verb
_ASIDE = re.compile(r", (?:(?:[a-z]+ly|under|in|as|at|for|with|without|unlike|like) )[^,]{3,60},")


def _unname(phrase: str, name: str | None) -> str:
    """Drop a naming head: "a method called Expanded Name (X)" -> "Expanded Name";
    "a representation that we call 'unary form'" -> "unary form: representation"."""
    if name:
        phrase = phrase.replace(f" ({name})", "")
    head = phrase[:90]
    if not any(w in head for w in ("call", "term", "named", "dubbed", "coined")):
        return phrase
    m = _NAMING.match(phrase)
    if not m:
        return phrase
    rest = phrase[m.end() :]
    if name and rest.startswith(name):
        return phrase
    if q := _QUOTED.match(rest):
        kept = m.group().split()[:-1]
        while kept and kept[-1] in ("that", "which", "we"):
            kept.pop()
        lead = _LEAD.sub("", " ".join(kept), count=1)
        return f"{q.group(1).strip(' ,')}: {lead}{rest[q.end() :]}"
    return rest


def _compress(phrase: str, name: str | None) -> str:
    """A title-like phrase from the words after the contribution verb."""
    phrase = _IN_THIS_PAPER.sub("", phrase.strip(" .!?"), count=1)
    phrase = _unname(phrase, name)
    if name:
        phrase = _drop_name(phrase, name)
    if ", " in phrase:
        phrase = _ASIDE.sub("", phrase, count=1)
    phrase = _PAREN.sub("", phrase)
    phrase = _WITHOUT.sub(" without ", phrase)
    if m := _CLAUSE.search(phrase, 12):
        phrase = phrase[: m.start()]
    if " by " in phrase and (m := _BY_GERUND.search(phrase)):
        phrase = m.group(1)
    if " these " in phrase or " those " in phrase or " such " in phrase:
        phrase = _POINTER_DET.sub(" ", phrase)
    if " be " in phrase and (m := _USED_TO.match(phrase)):
        # "diffusion models can be used to solve X" -> "solving X with diffusion models"
        phrase = f"{_gerund(m.group(2))} {m.group(3)} with {m.group(1)}"
    phrase = phrase.strip(" ,;:-–—\"'")
    phrase = _LEAD.sub("", phrase, count=1)
    if m := _HEAD_THAT.match(phrase):
        verb = m.group(1)
        verb = verb[:-2] + "y" if verb.endswith("ie") else verb
        phrase = f"{_gerund(verb)} {phrase[m.end() :]}"
    phrase = _HEAD_LEAD.sub("", phrase, count=1)
    phrase = _HEAD_OF.sub("", phrase, count=1)
    phrase = _HEAD_INNER.sub(_drop_head, phrase, count=1)
    if phrase.startswith(("to ", "To ")):
        verb, _, rest = phrase[3:].partition(" ")
        if verb.endswith("ly") and rest:  # "to jointly learn X" -> "jointly learning X"
            head, _, tail = rest.partition(" ")
            if head.isalpha() and head.islower():
                phrase = f"{verb} {_gerund(head)} {tail}".strip()
        elif verb.isalpha() and verb.islower() and verb not in _FUNCTION:
            # "to solve X" -> "solving X"; "to this problem" has no verb to turn
            phrase = f"{_gerund(verb)} {rest}".strip()
    return _NOVEL.sub(" ", phrase).strip(" ,;:-–—\"'")


# Words that wait for more: a title never ends on them.
_TRAILING = _wordset(
    "tailored designed trained called named dubbed termed aiming since because capable able "
    "built used based"
)
# "k-means clustering is an important problem": a clause; its subject is the title.
_COPULA = re.compile(r"^(.{6,70}?) (?:is|are|has been|have been|remains|remain) (?:a|an|the|one)\b")


# Participles and verbs that ask for an object or a complement: a title never ends on them
# ("... transformations working", "... by learning to produce", "... that combines").
_PARTICIPLES = _wordset(
    "working achieving using taking leveraging combining enabling allowing making providing "
    "yielding proving expanding spotlighting showing demonstrating requiring involving "
    "including resulting leading capturing introduced proposed given obtained inspired "
    "motivated guided driven followed known applied"
)


def _trim(words: list[str]) -> list[str]:
    """Drop the words a title cannot end on: a function word, a word that waits for more, an
    infinitive or relative clause cut short, a gerund after a preposition ("by integrating")."""
    while words:
        last = words[-1].strip(",;:")
        low = last.lower()
        if low in _FUNCTION or (len(words) > 2 and (last in _TRAILING or low in _PARTICIPLES)):
            words.pop()
        elif len(words) > 3 and words[-2] in ("to", "that", "which"):
            del words[-2:]  # "... in the loop to obtain", "... optimization that achieves"
        elif len(words) > 3 and low.endswith("ing") and words[-2].lower() in _FUNCTION:
            del words[-2:]
        else:
            break
    return words


def _fit(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a phrase boundary; never ending on a function word."""
    words = _trim(text.split())
    if not words:
        return ""
    text = " ".join(words).rstrip(" ,;:")
    if len(text) <= limit:
        return text
    best = 0
    length = -1
    clause = 0  # where a relative clause starts: a cut inside one ends before it
    for i, word in enumerate(words):
        length += len(word) + 1
        if length > limit:
            break
        if word in ("that", "which", "whose") and length - len(word) > limit * 0.5:
            clause = i
        following = words[i + 1].lower() if i + 1 < len(words) else ""
        # "... by integrating" asks for its object: not an end
        waits = word.endswith("ing") and i > 0 and words[i - 1].lower() in _FUNCTION
        ends_phrase = word.endswith(",") or following in _FUNCTION
        if ends_phrase and not waits and word.lower() not in _FUNCTION:
            best = i + 1
    for end in (clause if clause and best > clause else 0, best):
        cut = _trim(words[:end]) if end else []
        if sum(len(w) + 1 for w in cut) > limit * 0.45:
            return " ".join(cut).rstrip(" ,;:")
    return cut_words(text, limit)


_OPENERS = re.compile(
    r"^ ?(?:(?:recent(?:ly)?|despite|although|though|while|however|existing|current|many|most|"
    r"in recent years|here|to (?:this|that) end|as|with|since|given|when|because|nowadays|"
    r"today|traditionally|typically|in|given|if|for|under|on)\b[^,]{0,120}, |"
    r"(?:recent|prior|previous|existing|many|"
    r"most)\b.{0,80}?\b(?:show|shown|showed|suggest|suggested|indicate|indicated|"
    r"demonstrate|demonstrated|found|reveal|revealed) that )",
    re.IGNORECASE,
)
_STILL_OPENER = re.compile(
    r"^(?:we|our|this (?:paper|work|study)|in this|here,? we|recent(?:ly)?|despite|although|"
    r"while|existing|current|many|most|however|it|there|these|they|such|this|that|if|given|"
    r"when)\b",
    re.IGNORECASE,
)


# The first sentence's main verb when its subject alone reads as a title.
_MAIN_VERB = re.compile(
    r"^([A-Z][^,;]{5,70}?) (?:(?:have|has) (?:recently )?(?:gained|attracted|become|shown|"
    r"emerged|received|achieved|drawn)|(?:can|could|may) be|(?:is|are) (?:a|an|the|one|widely|"
    r"increasingly|becoming|often|commonly)|bears?|plays?|remains?)\b"
)


def _fallback(text: str, ends: list[int]) -> str:
    """No contribution sentence: the first sentence, less any opener, that reads as a title."""
    start = 0
    for end in [*ends[:6], len(text)]:
        clause = _OPENERS.sub("", text[start:end].strip())
        clause = _PAREN.sub("", clause)
        if m := _CLAUSE.search(clause, 20):
            clause = clause[: m.start()]
        clause = clause.strip(" ,;:")
        if m := _MAIN_VERB.match(clause):  # "X have gained popularity": X is the title
            clause = m.group(1)
        if len(clause) >= 8 and not _STILL_OPENER.match(clause):
            return clause
        start = end + 1
    return _PAREN.sub("", text[: ends[0] if ends else len(text)]).strip(" .")


def _qualify(phrase: str, text: str, counts: dict[str, int], name: str | None) -> tuple[str, str]:
    """Put back the qualifier or topic the abstract keeps naming: "point cloud segmentation" ->
    "3D point cloud segmentation" when the abstract says "3D point cloud" again and again; and,
    when the phrase has no place for it, a topic named three times or more as a suffix to add
    after the phrase is fitted (" for MDPs", " in 3D")."""
    ranked = [
        (token, count)
        for token, count in sorted(counts.items(), key=lambda kv: -kv[1])[:3]
        if count >= 2 and token not in phrase and not (name and (token in name or name in token))
    ]
    for token, _count in ranked[:2]:
        at = text.find(f" {token} ")
        for _ in range(3):
            if at < 0:
                break
            after = text[at + len(token) + 2 :].split(" ", 1)[0].strip(",.;:")
            if len(after) > 2 and after.isalpha() and after.islower() and after not in _FUNCTION:
                where = phrase.find(f" {after}")
                if where >= 0 and (
                    where + len(after) + 1 == len(phrase)
                    or not phrase[where + len(after) + 1].isalnum()
                ):
                    return f"{phrase[:where]} {token}{phrase[where:]}", ""
                if phrase.startswith(after + " ") or phrase == after:
                    return f"{token} {phrase}", ""
            at = text.find(f" {token} ", at + 1)
    for token, count in ranked[:1]:
        # only a field's term: another paper's method ("for KataGo") or a quantity's
        # abbreviation ("for CE") would puzzle a reader
        if count >= TOPIC_MIN and len(phrase) > 12 and _is_field(token):
            return phrase, f" in {token}" if token[0].isdigit() else f" for {token}"
    return phrase, ""


def _is_field(token: str) -> bool:
    return token in _GENERIC or token[:-1] in _GENERIC and token[-1] == "s"


def _balance(text: str) -> str:
    """Drop brackets that do not pair up."""
    if not any(c in text for c in "()[]{}"):
        return text
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[int] = []
    drop: set[int] = set()
    for i, c in enumerate(text):
        if c in "([{":
            stack.append(i)
        elif c in pairs:
            if stack and text[stack[-1]] == pairs[c]:
                stack.pop()
            else:
                drop.add(i)
    drop.update(stack)
    return " ".join("".join(c for i, c in enumerate(text) if i not in drop).split())


# --- the task: what the first sentence is about --------------------------------------------

# "Open world object detection (OWOD) is a new task ...": the first sentence's subject names the
# paper's field or task, the words a real title so often ends with ("... for X").
_SUBJECT = re.compile(
    r" (?:(?:Recent(?:ly)?|In recent years|Nowadays|Today|Currently|However),? )?"
    r"(?:(?:The|A|An) )?([A-Za-z0-9][\w-]*(?: [\w-]+){0,5}?)(?: \([^()]*\))? "
    r"(?:is|are|has|have|remains|remain|plays|play|aims|aim|refers|can|enables|allows|offers|"
    r"provides|suffers|suffer|achieves?|requires?|shows?|emerged|becomes?|involves?|seeks?|"
    r"concerns?|studies|study|attempts?|focuses|focus)\b"
)
_NOT_SUBJECT = _wordset(
    """
    we it this that these those there they such our its their which what how why when studies
    works papers methods approaches models techniques algorithms literature research progress
    most many existing current recent prior previous traditional conventional several some
    one it's issue issues problem problems question questions challenge topic area key
    approach method framework technique algorithm model
    """
)
_SUBJECT_TRIM = _wordset("existing current modern conventional traditional standard typical")
# The phrase points back at a task it does not name: "... to tackle this problem".
_POINTER = re.compile(
    r"(?:,? (?:to|that|which|for|in|on|of) [a-z]+(?: [a-z]+ly)?)? (?:this|these|those|such|the "
    r"above|the|that) (?:problems?|issues?|tasks?|settings?|challenges?|limitations?|gap|"
    r"shortcomings?|schemes?|questions?|end|drawbacks?|difficult(?:y|ies)|goals?|needs?)\b.*$"
)
_WEAK_START = _wordset(
    """
    and as to question answer this these such it its their both which where while there then
    thus however instead differently further finally first also by in on with for of from that
    when how what whether why so our we here not types kind kinds way ways use issue issues
    """
)


def _subject(text: str, pos: int = 0) -> str:
    """The subject of the first sentence when it names a task: "open world object detection"."""
    m = _SUBJECT.match(text, pos)
    if not m:
        return ""
    words = m.group(1).split()
    while words and words[0].lower() in _SUBJECT_TRIM:
        del words[0]
    if not words or any(w.lower() in _NOT_SUBJECT for w in words) or len(words) > 6:
        return ""
    first = words[0]
    inside = text.count(f" {first} ") - text.count(f". {first} ") - text.startswith(f" {first} ")
    if first[1:].islower() and inside <= 0:
        words[0] = first.lower()  # a sentence's capital, not a name's ("Riemannian" stays)
    return " ".join(words)


def _weak(phrase: str) -> bool:
    """A phrase that does not say what the paper is about: a fragment or a bare head noun."""
    words = phrase.split()
    content = [w for w in words if w.lower() not in _FUNCTION and len(w) > 2]
    return not words or words[0].lower() in _WEAK_START or len(content) < 2


def _adds(subject: str, phrase: str) -> bool:
    """Whether the subject says something the phrase does not."""
    low = phrase.lower()
    return any(w.lower().rstrip("s") not in low for w in subject.split() if len(w) > 3)


def _quality(phrase: str, lower: str) -> float:
    """How well a compressed phrase reads as the paper's title: a fragment, a bare vague head or
    a pointer ("such a framework", "this problem") reads badly; content words the abstract keeps
    using read well."""
    words = phrase.split()
    if len(phrase) < 8 or not words:
        return -9.0
    score = 0.0
    first = words[0].lower()
    if first in _WEAK_START or first in _VAGUE_WORDS:
        score -= 3.0
    if _POINTER.search(phrase):
        score -= 1.0
    recur = 0
    for word in words[:10]:
        if len(word) > 3 and word not in _FUNCTION:
            word = word.lower().strip(",;:")
            if lower.count(word[:-1] if word.endswith("s") else word) >= 2:
                recur += 1
    return score + 0.25 * min(recur, 4)


_HEAD_WORDS = _wordset(re.sub(r"[^a-z]+", " ", _HEADS + _VAGUE)) | _VAGUE_WORDS
_BAD_START = _wordset(
    "if cases case such this these those it they them other whether how what when where which "
    "there then thus and but or so that as its their"
)
# A verb that makes a phrase a clause, unless a relative pronoun comes first
_MAIN_CLAUSE = re.compile(
    r" (?:can|may|could|might|will|would|should|must|is|are|was|were|has|have|refers|remains|"
    r"requires|becomes|allows|enables|reconstructs|reveals|hypothesize) "
)
_RELATIVE = re.compile(r" (?:that|which|who|how|when|whether) ")


def _bad(phrase: str) -> bool:
    """A phrase that cannot be a title: a fragment led by a pointer or a conjunction ("such a
    framework", "if h"), a main clause ("X can vary ...", "X refers to ..."), or one whose only
    content is a head noun ("algorithms as part of a framework")."""
    if len(phrase) < 10:
        return True
    words = phrase.split()
    first = words[0].lower()
    if first.strip(",") in _BAD_START or first.endswith("ly,"):
        return True
    low = f" {phrase.lower()} "
    if " we " in low:
        return True
    if (m := _MAIN_CLAUSE.search(low)) and not _RELATIVE.search(low, 0, m.start() + 1):
        return True
    for i in (1, 2):
        if (
            i < len(words)
            and words[i] in ("such", "this", "these", "them")
            and (words[i] != "such" or words[i + 1 : i + 2] not in (["as"], ["that"]))
        ):
            return True
    content = 0
    for word in words:
        w = word.lower().strip(",;:")
        if len(w) > 2 and w not in _FUNCTION and w not in _HEAD_WORDS and w != "part":
            content += 1
            if content >= 2:
                return False
    return not (content == 1 and len(words) == 1 and len(phrase) >= 10)


def _antecedent(phrase: str, text: str, before: int, name: str | None) -> str:
    """ "such a framework" -> the earlier "a general framework for differentiability ..."."""
    m = re.match(r"(?:such|this|these|that|the same) (?:an? )?([a-z-]+)", phrase)
    if not m:
        return ""
    head = m.group(1)
    found = ""
    for hit in re.finditer(
        r" (?:an?|the) ((?:[\w-]+ ){0,3}" + re.escape(head) + r"s? "
        r"(?:for|of|to|that|which|based|with|on)\b[^.]*)",
        text[:before],
    ):
        found = hit.group(1)
    for stop in (" that ", " which "):
        found = found.split(stop, 1)[0]
    return _compress(found, name) if found else ""


def _resolve(phrase: str, text: str, ends: list[int], start: int) -> str:
    """ "designing them" -> "designing normalization layers and activation functions": "them" is
    what the sentence before the contribution sentence was about."""
    index = bisect_right(ends, start - 1)
    if index == 0:
        return phrase
    before = ends[index - 2] + 1 if index >= 2 else 0
    subject = _subject(text, before)
    if not subject or " " not in subject:
        return phrase
    return " ".join(subject if w == "them" else w for w in phrase.split())


def _rescue(
    phrase: str,
    text: str,
    ends: list[int],
    cues: list[tuple[float, int, int, int]],
    name: str | None,
) -> str:
    """The phrase read badly: the first of the other candidates that reads as a title (the
    antecedent a pointer stands for, another contribution sentence, the first sentence, its
    subject); the phrase itself when none does."""
    if cues and (found := _antecedent(phrase, text, cues[0][1], name)) and not _bad(found):
        return found
    for _weight, _start, at, end in cues[:5]:
        candidate = _compress(text[at:end], name)
        if candidate != phrase and not _bad(candidate):
            return candidate
    subject = _subject(text)
    if len(subject) >= 10 and not _bad(subject):
        return subject
    candidate = _compress(_fallback(text, ends), name)
    return candidate if not _bad(candidate) else phrase


def derive_title(abstract: str) -> str:
    """A title of at most 80 characters a person can scan in a list."""
    text = _clean(abstract)
    if len(text) < 2:
        return EMPTY
    ends = [m.start() for m in _SENTENCE_END.finditer(text)]
    cues = _contributions(text, ends)
    counts: dict[str, int] = {}
    name = _find_name(text, cues[0][1:] if cues else None, counts)
    phrase = ""
    if cues:
        rivals = [cue for cue in cues[1:3] if cue[0] >= cues[0][0] - 2.5]
        lower = text.lower() if rivals else ""
        best = -99.0
        for weight, _start, at, end in cues[: 1 + len(rivals)]:
            candidate = _compress(text[at:end], name)
            if not rivals:
                phrase = candidate
                break
            quality = _quality(candidate, lower)
            if weight + quality > best:
                best, phrase = weight + quality, candidate
            if quality >= 0.0 and (len(cues) < 2 or cues[1][0] < weight - 1.0):
                break  # reads well, and no sentence states the contribution nearly as surely
    if len(phrase) < 8:
        phrase = _fallback(text, ends)
        if name:
            phrase = _compress(phrase, name)
    if cues and " them " in f" {phrase} ":
        phrase = _resolve(phrase, text, ends, cues[0][1])
    if _bad(phrase):
        phrase = _rescue(phrase, text, ends, cues, name)
    phrase, topic = _qualify(phrase, text, counts, name)
    subject = _subject(text)
    if m := _COPULA.match(phrase):
        phrase = m.group(1)
    if subject and (name is None or subject != name):
        phrase = _POINTER.sub("", phrase)
        if _weak(phrase):
            phrase = subject
        elif _adds(subject, phrase) and (not topic or topic.split()[-1] in subject):
            topic = f" in {subject}" if " for " in phrase else f" for {subject}"
    room = MAX_TITLE - (len(name) + 2 if name else 0)
    if name and len(name) >= MAX_TITLE // 2:
        title = _fit(name, MAX_TITLE)
    else:
        body = _fit(phrase or text, room)
        if topic and len(body) + len(topic) > room:
            # the task fits when the phrase keeps most of its words, else the phrase alone
            shorter = _fit(body, room - len(topic))
            if len(shorter) >= KEEP * len(body) and not shorter.endswith("…"):
                body = shorter
            else:
                topic = ""
        title = f"{body}{topic}" if body else ""
        if name:
            title = f"{name}: {title}" if title else name
    title = _balance(title).strip()
    for quote in ('"', "“", "”"):
        if quote in title and (title.count(quote) % 2 or quote != '"'):
            title = " ".join(title.replace(quote, "").split())
    if not title:
        return EMPTY
    first = title.split(" ", 1)[0]
    if "a" <= title[0] <= "z" and first.islower():  # not "dugMatting", "iToF"
        return title[0].upper() + title[1:]
    return title
