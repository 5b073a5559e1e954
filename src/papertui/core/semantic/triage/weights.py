"""The tunable numbers of the "for you" model, in one place.

The model's modules read each as an attribute of this module when they run
(`weights.ASK_POOL`), so a benchmark or a test can set one here and every part sees it. What
each value was measured against is in docs/lab-notes/for-you.md.
"""

NEGATIVE_WEIGHT = 0.5  # Rocchio's gamma: how far the passed-over papers push the profile away
NEAREST_WEIGHT = 0.0  # weight of the best LSA cosine to any one liked paper (0: why only;
# measured: every weight > 0 lowered precision@20 for single-interest readers)
PHRASE_PENALTY = 2.0  # standard deviations of the scores a negative phrase costs per match
PROFILE_TERMS = 50  # heaviest positive terms kept in the profile (and in the feedback centroid)
# a word pair's weight in the profile against its weight in a paper's vector: in a profile the
# shared pairs are mostly the field's set phrases, which their two words already say
PROFILE_PAIR_WEIGHT = 0.7
FEEDBACK_PAPERS = 10  # best unjudged papers folded back into the profile (0: no feedback)
FEEDBACK_WEIGHT = 0.3  # their centroid's weight against the (unit) profile's
# the feedback centroid's LSA part for a reader whose LSA part weighs less than
# `similar.DENSE_WEIGHT` (its own papers did not confirm an LSA direction, so the papers the
# feedback found give more of it); a reader with a confirmed direction keeps FEEDBACK_WEIGHT
# (0.5 there moved a niche's papers later: tests/unit/test_triage_contrast.py)
FEEDBACK_DENSE_WEIGHT = 0.5
# a reader whose left-out liked papers the LSA part does not find (mean separation <= 0) and the
# terms find by less than WEAK_SEPARATION standard deviations: five answers cannot tell which
# part serves them, so the LSA part keeps WEAK_DENSE_WEIGHT (not 0) and the feedback takes
# WEAK_FEEDBACK_PAPERS (about one keyword reader in seven at ICLR 2017)
WEAK_SEPARATION = 1.0
WEAK_DENSE_WEIGHT = 0.1
WEAK_FEEDBACK_PAPERS = 20
LEAVE_ONE_OUT_MIN = 3  # liked papers needed to choose the LSA part's weight per reader
# liked papers left out in turn at most (evenly spread over them): each costs a profile of all
# the others, so leaving out every one of 1,000 liked papers took 14 s at 3,000 papers
LEAVE_ONE_OUT_MAX = 20
# weight of the contrast score (terms setting the liked papers apart from the library, see
# `contrast`) against the profile's score, both standardised (0: the profile alone)
CONTRAST_WEIGHT = 0.4
# "ask me" skips a paper whose terms are this close (cosine) to one it already asks about:
# near-copies (a version with a word changed) would stack up, and one answer settles them all
DUPLICATE_COSINE = 0.9
ASK_POOL = 3  # candidates looked at per paper asked (copies skipped from them)
