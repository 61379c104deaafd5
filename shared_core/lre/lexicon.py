"""Word-level vocabulary shared by the features and the self-supervised labels.

Kept in one place so that "a content token" means the same thing when a label is made from a log and
when a feature is computed at trim time.
"""

from __future__ import annotations

import re

WORD = re.compile(r"[a-z0-9]+(?:['_\-][a-z0-9]+)*")
"""Lower-cased word tokens; ``order_id`` and ``ORD-1234`` stay one token."""

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just let me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own same
    she should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves yes yeah oh ok okay hey hi hello really so just also too
    i'm it's that's don't can't i've you're i'll we're they're what's there's thats im dont cant ive
    youre ill got get gets getting go going gone went thing things lot much many way one well
    """.split()
)

IDENTIFIER = re.compile(
    r"""https?://[^\s"'<>)\]]+                     # URL
      | (?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+        # e-mail (anchored: no quadratic retries)
      | (?:~|\.{1,2})?/(?:[\w.\-]+/)+[\w.\-]*       # unix path
      | [A-Za-z]:\\[\w\\.\- ]+                      # windows path
      | \b(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b   # hex
      | \b(?=[A-Za-z0-9+/_\-]*[0-9])(?=[A-Za-z0-9+/_\-]*[a-z])(?=[A-Za-z0-9+/_\-]*[A-Z])
          [A-Za-z0-9+/_\-]{16,}={0,2}               # base64 / API-token looking
      | \b[A-Za-z]+[-_#][A-Za-z0-9]*\d[A-Za-z0-9\-_]*\b   # ORD-1234, ticket_42, inv#7
      | \b[a-z]+(?:_[a-z0-9]+)+\b                   # snake_case
      | \b[a-z]+(?:[A-Z][a-z0-9]+)+\b               # camelCase
    """,
    re.VERBOSE,
)
"""Identifier-looking spans: the things an agent copies verbatim later and cannot re-derive."""

ERROR_WORDS = frozenset(
    """error errors exception traceback failed failure fails denied invalid timeout refused unauthorized
    unauthorised forbidden crash crashed warning fatal panic 400 401 403 404 408 429 500 502 503 504""".split()
)

TEMPORAL_WORDS = frozenset(
    """yesterday today tonight tomorrow ago last next weekend week weeks month months year years monday
    tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december since until deadline birthday anniversary""".split()
)
"""Time anchors: questions about *when* something happened are answered by these turns (4-digit years
19xx / 20xx count too)."""

FIRST_PERSON_WORDS = frozenset("i i'm i've i'd i'll my me mine myself we our us we're we've".split())
"""Self-disclosure: statements about oneself are what later questions ask about."""

EVENT_WORDS = frozenset(
    """went got had made took saw met bought moved started finished joined visited adopted won lost began
    came gave found left told said felt decided tried learned became built ran wrote sold quit hired fired
    married graduated signed booked ordered paid sent received broke fell""".split()
)
"""Irregular or common past-tense verbs (regular ``-ed`` forms are detected by suffix): something
happened, which is what later questions ask about."""

PEOPLE_WORDS = frozenset(
    """sister brother mom dad mother father parents kids kid son daughter children husband wife partner
    boyfriend girlfriend friend friends family boss coworker colleague grandma grandpa grandmother
    grandfather cousin aunt uncle baby dog cat pet puppy kitten doctor teacher neighbor neighbour""".split()
)
"""People and pets of the speaker's life: who did what is the commonest memory question."""

PLAN_WORDS = frozenset(
    """plan plans planning planned gonna hope hoping hopefully soon upcoming excited future goal goals
    dream dreams intend aim want wanna thinking considering trip tickets schedule scheduled""".split()
)
"""Intentions: what someone means to do is what a later question about their plans needs."""

PREFERENCE_WORDS = frozenset(
    """love loved loves favorite favourite favorites favourites enjoy enjoyed enjoys prefer passion
    passionate hobby hobbies fan obsessed adore""".split()
)
"""Preferences and hobbies: stable facts about a person that questions ask about."""

PHATIC_WORDS = frozenset(
    """thanks thank wow awesome cool great nice congrats congratulations haha lol bye glad sounds amazing
    yay omg aww""".split()
)
"""Acknowledgements that rarely carry a fact."""


def words(text: str) -> list[str]:
    """Lower-cased word tokens of ``text``."""
    return WORD.findall(text.lower())


def content_words(text: str) -> list[str]:
    """Word tokens minus stop words (order kept, duplicates kept)."""
    return [w for w in WORD.findall(text.lower()) if w not in STOP_WORDS]
