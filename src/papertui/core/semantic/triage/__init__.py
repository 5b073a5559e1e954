"""The "for you" ranking: learn a reader's interest from what they kept and what they passed over.

The model is Rocchio's profile in both parts of `PaperVectors`: the centroid of the positives
(bookmarked, noted, tagged, liked papers and seed texts; a liked paper's terms weighted by the
share of the liked papers holding them: see `profile`) minus `weights.NEGATIVE_WEIGHT` times the
centroid of the negatives (read and not kept, or skipped), its word pairs weighed by
`weights.PROFILE_PAIR_WEIGHT` and its term part cut to its `weights.PROFILE_TERMS` heaviest
terms (the long tail is what one liked paper says and the others do not), scored as term cosine
plus a weight times LSA cosine (the weight chosen per reader by leaving each liked paper out,
`profile.dense_weight`; `similar.DENSE_WEIGHT` below 3 liked papers; at least
`weights.WEAK_DENSE_WEIGHT` when neither part finds the papers left out). Then one round of
pseudo-relevance feedback: the centroid of the `weights.FEEDBACK_PAPERS` best unjudged papers
joins the profile with weight `weights.FEEDBACK_WEIGHT` (its LSA part with
`weights.FEEDBACK_DENSE_WEIGHT` when the reader's LSA weight is under the default), and every
paper is scored again, so the papers that sit between the liked ones pull in their own
neighbours. Each paper gets a `why`: the terms that contributed most to its score and the liked
paper it is closest to. Negative phrases push matching papers down, per match, by the spread
from the median score to the top plus `weights.PHRASE_PENALTY` deviations, without hiding them
(and keep them out of the feedback); `asking` lists the papers the model is least sure about
(about as close to a kept paper as to a passed-over one).

Last, the score is standardised (over the unjudged papers) and the standardised contrast score
of `contrast` joins it with weight `weights.CONTRAST_WEIGHT`: the terms that set the liked
papers (and, at `weights.FEEDBACK_WEIGHT`, the feedback papers) apart from the whole library, each
weighted by a t statistic.

The parts: `training` (the profile), `model` (the scores and their why), `profile` (what the
liked papers share; the LSA part's weight per reader), `contrast`, `phrases` (negative phrases),
`asking` ("ask me") and `weights` (the tunable numbers). What was measured for each choice, and
what was tried and dropped, is in docs/lab-notes/for-you.md.
"""

from __future__ import annotations

from papertui.core.semantic.triage.model import InterestModel, Ranked
from papertui.core.semantic.triage.phrases import TextOf
from papertui.core.semantic.triage.training import train

__all__ = ["InterestModel", "Ranked", "TextOf", "train"]
