"""Which words are never terms (stop words, formula words), which name no field alone, and how
plurals fold."""

from __future__ import annotations


def _words(text: str) -> list[str]:
    return text.split()


# Function words: never terms, and they break phrases ("learning of representations" has no bigram).
STOP_WORDS = frozenset(
    _words(
        """
a about above across after afterwards again against all almost alone along already also although
always am among amongst an and another any anyhow anyone anything anyway anywhere are around as at
be became because become becomes becoming been before beforehand behind being below beside besides
between beyond both but by can cannot could did do does doing done down due during each either else
elsewhere enough especially etc even ever every everyone everything everywhere except few for
former formerly from further furthermore had has have having he hence her here hereby herein hers
herself him himself his how however i ie eg if in indeed into is it its itself just last latter
latterly least less let like likely made mainly make makes making many may me meanwhile might mine
more moreover most mostly much must my myself namely neither never nevertheless next no nobody none
nor not nothing now nowhere of off often on once one only onto or other others otherwise our ours
ourselves out over own per perhaps please put quite rather re really same seem seemed seeming seems
several she should since so some somehow someone something sometime sometimes somewhere still such
than that the their theirs them themselves then thence there thereafter thereby therefore therein
thereof thereupon these they this those though through throughout thru thus to together too toward
towards under unless until up upon us use used uses using very via was we well were what whatever
when whence whenever where whereas whereby wherein whether which while whither who whoever whole
whom whose why will with within without would yet you your yours yourself yourselves s t d ll ve
able across can't cannot won't isn't aren't doesn't don't didn't it's we're let's two three four
five six seven eight nine ten first second third fourth fifth single multiple i.e e.g vs versus et
al
"""
        # Words that say how a paper talks, not what it is about.
        """
paper papers work works propose proposes proposed proposing present presents presented presenting
introduce introduces introduced introducing show shows showed shown showing demonstrate
demonstrates demonstrated demonstrating result results resulting achieve achieves achieved
achieving outperform outperforms outperformed outperforming state-of-the-art sota art novel new
existing prior previous previously recent recently current currently extensive extensively
significant significantly substantially substantial various different important effective
effectively efficient efficiently simple simply better best good high higher highly large larger
small smaller key main major furthermore additionally experimental experiment experiments empirical
empirically evaluate evaluated evaluation evaluations benchmark benchmarks demonstrates superior
competitive compared comparison compare comparable improve improved improves improving improvement
improvements leverage leverages leveraging leveraged enable enables enabled enabling allow allows
allowed approach approaches method methods technique techniques framework frameworks strategy
strategies study studies studied investigate investigates investigated address addresses addressed
addressing problem problems issue issues challenge challenges challenging task tasks consider
considers considered provide provides provided providing obtain obtains obtained based well-known
widely wide way ways aim aims goal goals focus focuses paradigm performance performs perform
performed tackle tackles lead leads leading conduct conducted conducts despite although moreover
specifically particular particularly typically usually generally general commonly common often
already thereby able unlike furthermore respectively real-world real world however finally overall
crucial critical remains remain requires require required requiring effectiveness efficiency
superiority robust robustly range variety number numbers set sets code available publicly release
released github https http www com org html pdf firstly secondly thirdly lastly named called
termed dubbed project page enhance enhances enhanced enhancing utilize utilizes utilized utilizing
exploit exploits exploiting employ employs employed adopt adopts adopted incorporate incorporates
incorporated incorporating integrate integrates integrated integrating explore explores explored
exploring develop develops developed developing generate generates generated generating prove
proves proved proving certain reduce reduces reduced reducing
"""
    )
)

# Words that may sit inside a phrase ("language models") but name no field on their own.
GENERIC_WORDS = frozenset(
    _words(
        """
model models learning learn learns learned network networks neural deep data datasets dataset
training train trained algorithm algorithms system systems representation representations feature
features function functions information analysis process processes structure structures output
outputs input inputs level levels space spaces type types form forms term terms case cases order
application applications setting settings time times step steps parameter parameters value values
example examples sample samples instance instances scale loss accuracy error errors quality theory
theoretical practice practical domain domains context contexts design scheme module modules
component components mechanism mechanisms architecture architectures layer layers object objects
task tasks image images text source target unit units user users experiment tool tools metric
metrics solution solutions stage stages class classes label labels pattern patterns property
properties cost costs rate rates size sizes amount amounts area areas field fields aspect aspects
point points part parts group groups state states variable variables distribution distributions
existing novel proposed new generative efficient adaptive robust scalable effective unified simple
end-to-end end lower upper upon guarantee guarantees bound bounds old notion notions
"""
    )
)

# LaTeX commands and Greek letters come from formulas, not prose.
LATEX_WORDS = frozenset(
    _words(
        """
frac mathcal mathbb mathbf mathrm mathit mathsf boldsymbol textbf textit emph cite citep citet ref
left right cdot cdots ldots dots log exp min max sum prod int sqrt tilde hat bar top sim approx leq
geq neq infty mid lvert rvert langle rangle operatorname text mbox quad qquad big bigg alpha beta
gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho sigma tau
upsilon phi varphi chi psi omega
"""
    )
)


def fold_word(word: str) -> str:
    """Plurals to singular, so "networks" and "network" are one term (not a full stemmer)."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4 and word not in ("series", "species"):
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("ches", "shes", "xes", "zzes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ics", "ous")):
        return word[:-1]
    return word
