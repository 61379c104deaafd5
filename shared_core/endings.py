"""Endings: a claim that says a value is over ("ditched barclays for monzo", "nugget died", "handed the pager to
Marco", "Sam and I broke up") and the words it ends.

Why its own test: an ending names the value it ends, so the claim shares its words with the entry that holds that
value and a word-by-word comparison reads a repeat; what changed is that the value is over. ``change`` reads an
ending as hard evidence beside its own word-for-word frames.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import polarity, slots
from .cuescan import Prefiltered
from .grounding import negated, numbers
from .index.embedders import _stem
from .linking import specific

_ENDS = Prefiltered(re.compile(
    r"\b(?:ditch(?:ed|ing)?|clos(?:ed|ing)|dump(?:ed|ing)?|left|leaving|quit(?:ting)?|finished(?! \w+ing\b)|"
    r"sold up(?: in| at)?|sold|selling|cancel(?:l?ed|l?ing)?|"
    r"remov(?:e|ed|ing)|delet(?:e|ed|ing)|uninstall(?:ed|ing)?|drop(?= the\b)|scrap|"
    r"swap(?=\s+(?:(?:the|my|our|out)\s+)?(?:[\w'-]+\s+){1,2}for\b)|(?:gone|went|going) (?:right |completely |totally )?off|"
    r"dropp(?:ed|ing)(?: out)?|g[ai]ven? up(?: on)?|giving up(?: on)?|came off|coming off|stopped|stopping|pull(?:ed|ing) out of|"
    r"moved (?:out of|away from|on from)|switched (?:away )?from|got rid of|retired|no longer(?: \w+)?|"
    r"done with|last day (?:at|of|with)|"
    r"(?:migrat|mov|port|switch|shift|transition)(?:ed|ing) (?:(?:the|my|our|all|us|everyone|everything|\w+s)\s+){0,2}off|"
    r"(?:can'?t|cannot|won'?t|never|not) (?:be )?go(?:ing)? back to|"
    r"swapp(?:ed|ing)(?! with)|replac(?:ed|ing)|traded(?: in)?|trading(?: in)?|not|"
    r"rather than|instead of|"
    r"rip|r\.i\.p\.?|lost|buried|mourning|grieving|broke up with|split (?:up )?(?:with|from)|separated from|divorced|"
    r"no more|(?:so|totally|completely|i'?m|im) over|gr[eo]wn? out of|outgr[eo]wn?|killed|axed|binned|nuked|scrapped|"
    r"overt(?:aken|ook|akes?)|dethron(?:ed|es|ing)|ousted|supplanted|usurped|edged out|knocked (?:off|out))"
    r"\s+(?:(?:the|my|our|on|at|from|of|with|a|an|that|this|old|first|other|spare|previous|original)\s+){0,2}([\w'-]+)", re.I))
"""A verb that ends something, and the word it ends (past up to two articles or prepositions); a
correction ("the dog's name is Max, not Rex", "oat milk instead of cow's") ends the word it sets aside, and so does
a refusal to return ("can't go back to black", "never going back to the treadmill"), a move off something ("migrated the
pipelines off jenkins") and selling up in a place ("sold up in woking")."""


def ended(claim: str, entry: str) -> bool:
    """"ditched barclays for monzo", "finished dune, on to the hobbit", "last day at google friday" about the
    entry that holds Barclays, Dune, Google: the claim ends the entry's own value, so it changes the entry
    however many words the two share (a restatement repeats the value; it does not end it). An entry that
    already says the value ended ("I quit smoking") is not changed by saying it again. The decision counts
    it as hard evidence of a change, beside ``replaced``'s word-for-word frames. A clipped word of five
    letters or more names the longer one it starts ("dropped the psych one" ends "intro to psychology")."""
    if not ends(claim):
        return False        # (most claims end nothing: answered before the entry's words are gathered)
    held = specific(entry) | numbers(entry)    # "14 Larch Rd, not 41" ends the 41 of "41 Larch Rd"
    if not held or ends(entry):
        return False
    return any(w in held or len(w) >= 5 and any(h.startswith(w) for h in held) for w in ends(claim))


@lru_cache(maxsize=65536)
def ends(text: str) -> tuple[str, ...]:
    """The stems of the words ``text`` ends (``_ENDS``, ``_GONE``, ``_APART``, ``_HANDED``), empty when it
    ends nothing. Cached per text: ``ended`` and ``revived`` read both texts of a pair, each both ways."""
    return tuple(_stem(next(g for g in m.groups() if g).lower().removesuffix("'s"))
                 for m in (*_ENDS.finditer(text), *_GONE.finditer(text), *_APART.finditer(text),
                           *_HANDED.finditer(text), *_TAKEN_OFF.finditer(text), *_FREE.finditer(text),
                           *_REMOVED.finditer(text)))


def revived(claim: str, entry: str) -> bool:
    """The claim states as current a value its entry says is over ("we've got you down for cetirizine" about
    "swapped the cetirizine for fexofenadine"), without itself ending or negating it."""
    return ended(entry, claim) and not negated(claim) and not ends(claim)


_STILL = Prefiltered(re.compile(r"\b(?:still|no change|unchanged|as before)\b", re.I))
_CHANGED = Prefiltered(re.compile(r"\b(?:upped|bumped|raised|lowered|increased|decreased|reduced|doubled|halved|cut|paid|"
                                  r"moved|switched|swapped|changed|upgraded|downgraded)\b", re.I))


def denied(claim: str, entry: str) -> bool:
    """The claim says as still holding what its entry reports changed ("you're still on 50mg sertraline" about "gp upped
    the sertraline", "INV-2291 is still outstanding" about "brightwave paid the 2291 one"): the value from before the
    change, not a repeat of the entry (the contract reads it only beside a value the entry does not hold)."""
    return bool(_STILL.search(claim)) and bool(_CHANGED.search(entry)) and not _STILL.search(entry)


_GONE = Prefiltered(re.compile(r"\b([\w'-]+)\s+(?:one\s+|thing\s+|(?:contract|subscription|membership|lease|plan|deal|tenancy|"
                               r"policy|trial)\s+)?(?:has |had |just )?(?:ran out|run out|died|passed away|passed on|"
                               r"(?:was|is|were|are)(?:n'?t| not) working out|didn'?t work out|"
                               r"was put down|was put to sleep|is gone|is no more|closed down|shut down|went bust|"
                               r"went under|retired|resigned|stepped down|has left|lapsed|expired|dropped out|pulled out|"
                               r"(?:was |is |been |got )?(?:revoked|deactivated|decommissioned)|"
                               r"backed out|bailed|had to (?:bail|drop(?: out)?|pull out|back out|cancel)|"
                               r"(?:is |was )?retiring|went over to|moved out(?! of)|graduated|(?:is |was )?(?:off|out) sick|"
                               r"(?:went|has gone|was given) to (?:my|his|her|their|our|a|the user's) "
                               rf"(?:{'|'.join(slots.RELATIONS)})\b(?!['’])|"
                               r"(?:is |has )?(?:shut|gone)(?=\s*(?:[,.;!]|$|now\b|already\b|for good\b))|"
                               r"left(?=\s*(?:[,.;!]|$|for good\b))|"
                               r"shut for good|closed for good|(?:closed|shut) (?:its|their) doors|got poached|can'?t make it|"
                               r"got (?:too|way too|far too|a bit) (?:pricey|expensive|dear|far|unreliable)|"
                               r"(?:was|were|has been|have been|had been|got|is|are) (?:now |just |officially )?"
                               r"(?:cancell?ed|called off|scrapped|axed|terminated|discontinued)|"
                               r"(?:got|was) (?:nicked|stolen|nabbed|pinched|written off|totalled)|"
                               r"left (?:the |our |my |(?:the )?user's )?"
                               r"(?:team|company|firm|org|organi[sz]ation|business|project|squad|band|club|group)|"
                               r"(?:is |was |went |gone |has gone )?(?:off )?on (?:sabbatical|(?:mat|maternity|paternity|"
                               r"parental) leave|mat|maternity|paternity|parental|long[- ]term sick leave)|"
                               r"went for scrap|(?:was|got|been|were) (?:ripped|torn|taken) out|"
                               r"(?:cancell?ed|scrapped|axed)(?=\s*(?:[,.;!]|$)))\b",
                    re.I))
"""The word before a verb that ends it: "nugget died", "the old gym closed down", "okafor retired" (the entry
that holds Dr Okafor as the GP), "helen's on mat leave", "joon can't make it" (the person no longer holds the role),
"northgate just wasn't working out", "the castle membership ran out" (the word before the contract's noun),
"the Pixel went to her sister" (a thing passed on to a relative)."""
_HANDED = Prefiltered(re.compile(
    r"\b(?:hand(?:ed|ing)(?: over)?|gave|giving|pass(?:ed|ing))\s+(?:(?:the|my|our|his|her|their)\s+)?(?:[\w'-]+\s+)?"
    r"([\w'-]+)\s+(?:over\s+|on\s+)?to\b|\b(?:taken|took|taking) over\s+(?:(?:the|my|our|his|her|their)\s+)?([\w'-]+)", re.I))
"""A thing handed on, which its holder no longer holds: "handed the pager to Marco", "gave the spare key to
my neighbour" (its last word), "Ray's taken over guitar" (at most two words between the verb and "to":
"gave lukas read access to the db" grants; it hands nothing on)."""
_TAKEN_OFF = Prefiltered(re.compile(r"\b(?:took|taken|take|taking)\s+(?:the\s+|my\s+|our\s+)?([\w'-]+)\s+off\b"
                                     r"(?!\s+(?:work|sick|today|tomorrow))", re.I))
"""Someone or something taken off what held them: "took mum off the doorbell" ends the entry that holds mum."""
_FREE = Prefiltered(re.compile(r"\b(?:been|now|officially|i'?m|im|went|gone|going|stay(?:ing|ed)?|"
                               r"\d+\s+(?:days?|weeks?|months?|years?))\s+([a-z]+)(?:-|\s)free\b(?!\s+(?:of|to|for)\b)", re.I))
"""A habit given up, said of the habit: "3 months smoke free" ends the entry that says the user smokes (a thing
described as free of something, "peat-free compost", "meat-free recipes", ends nothing)."""
_REMOVED = Prefiltered(re.compile(r"[\"']?(?:removed|deleted|revoked)[\"']?\s*[:=]\s*[\"']?([\w@-]+)", re.I))
"""A record's field naming who or what was taken out ('"removed": "sana.q"'): it ends that member's entry."""
_APART = Prefiltered(re.compile(r"(?:\b([\w'-]+)\s+and\s+(?:i|me)|\b(?:i|me)\s+and\s+([\w'-]+))\s+(?:have\s+|just\s+|finally\s+)?"
                                r"(?:broke up|split up|split|separated|divorced|called it (?:off|quits))\b", re.I))
"""A couple that ended, said of the other person: "Sam and I broke up", "me and sam split" end the entry that holds Sam."""


def over(claim: str, entry: str) -> bool:
    """The entry's value is over: the claim ends it, or turns the entry's stance on it around ("Not really into jazz
    any more" after "Likes jazz"), which ends the like as surely as "quit" ends a habit."""
    return ended(claim, entry) or polarity.flipped(claim, entry)


_NONE = frozenset("any anything anymore know all at whatsoever either take takes taking on have has got".split())
"""Words of a sentence saying an attribute holds nothing that name no value of it ("don't take any medication",
"no allergies that I know of")."""


def emptied(mine: slots.Slot, theirs: slots.Slot, claim: str, entry: str) -> bool:
    """One text says a many-valued attribute of its subject holds nothing ("User has no pets", "not on any meds these days") and
    the other gives it a value ("adopted a rescue greyhound", "I take sertraline 50mg"): the value it had is over,
    however few words the two share. (A single-valued attribute's negated cue is a value: "I don't eat meat" is a diet.)"""
    if not (mine.known and mine.many and mine.attribute == theirs.attribute and mine.negated != theirs.negated
            and slots.same_subject(mine, theirs)):
        return False
    (none, said), some = ((mine, claim), theirs) if mine.negated else ((theirs, entry), mine)
    named = slots.cue_words(said)       # the attribute said in words ("coriander's a no as well" names none: a dislike)
    return bool(named) and not none.values - named - slots.GENERIC - _NONE and bool(some.values)
