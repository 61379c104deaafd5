"""Relatives: the words that name them, under the names people call them ("my sis" is "my sister" and "mum" is
"mother": one subject); a relative said to be somewhere is who the text is about ("grandad's still at home": not the
user); a text about someone of the speaker's is not about the speaker ("wife's birthday's the 9th" beside "my birthday
is 3 May"); and a relative's word the user passes on is hearsay."""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import Prefiltered

NICKNAMES = frozenset(("sis", "bro", "hubby", "mam", "gran", "nan", "grandad", "stepdaughter", "stepson"))
"""Relations said the everyday way, beside ``RELATIONS``' own words."""
RELATIONS = frozenset(
    "daughter son kid child wife husband partner mom mum mother dad father brother sister manager boss colleague "
    "friend neighbour neighbor roommate landlord landlady dog cat doctor dentist grandma grandpa aunt uncle cousin "
    "team assistant teacher coach parents kids children sons daughters brothers sisters grandparents girlfriend "
    "boyfriend fiance fiancee spouse flatmate housemate nephew niece grandson granddaughter stepdad stepmum stepmom "
    "baby twins".split()) | NICKNAMES
ACTS = ("(?:(?:always|usually|never|often|sometimes|also)\\s+)?(?:lives?|works?|loves?|likes?|hates?|prefers?|drives?|plays?|"
        "eats?|drinks?|needs?|uses?|goes|go|attends?|studies|study|speaks?|takes?|owns?|gets?|orders?)")
"""Verbs that say what a relative does ("my wife drives a Tesla"): after one, the relation is the subject, not the
user's attribute ("my wife is Ana" names the user's partner)."""
KIN = {"sis": "sister", "bro": "brother", "hubby": "husband", "mom": "mum", "mother": "mum", "mam": "mum", "father": "dad",
       "gran": "grandma", "nan": "grandma", "grandad": "grandpa"}
"""One relative under each of the names people call them: one subject (``slots.same_subject``), each subject still
named as its text says (other tests read that word in the text)."""
UNMARKED = re.compile(r"\b(mum|mom|mam|dad|mother|father|wife|husband|hubby|partner|grandma|grandpa|grandad|gran|nan|aunt|"
                      r"uncle|girlfriend|boyfriend|fiance|fiancee|stepdad|stepmum|stepmom)s\s+(?!(?:is|are|was|were|has|have|"
                      r"had|will|would|can|says?|said|got|gets|just|still|been|ok|okay|the|a|an|and|or)\b)([a-z]\w*)(?<!ing)\b",
                      re.I)
"""A relative's thing written without the apostrophe ("mums car got written off", "Dads seat on EZY8432"): the
relative owns what follows, as "mum's car" (not "mums are ...")."""
_WHERE = re.compile(r"\s*(?:my\s+)?(\w+)(?:['’]s|\s+is)\s+(?:still\s+|now\s+)?(?=(?:in|at|on|with|away|back|off|home)\b)",
                    re.I)


def one(a: str, b: str) -> bool:
    """Two subjects that name one relative by two names ("sis" and "sister", "user.mum" and "user.mother")."""
    return _named(a) == _named(b)


def _named(subject: str) -> str:
    owner, _, word = subject.rpartition(".")
    return f"{owner}.{KIN.get(word, word)}" if owner else KIN.get(word, word)


def whereabouts(text: str) -> re.Match[str] | None:
    """A word the text opens with, said to be somewhere ("grandad's still at home", "my grandma is in a care home"):
    the caller decides whether the word names a relative."""
    return _WHERE.match(text)


_RELATION = "|".join(sorted(RELATIONS))
_RELATIVE = Prefiltered(re.compile(rf"^\W*(?:my|our|the|(?:the )?user(?:'s|s'))\s+({_RELATION})"   # then a copula or a verb
                                   rf"(?:'s|(?<=s)'|\s+(?:is|are|was|were|has|have|had|turns?|turned|{ACTS}))(?!\w)", re.I))
_BARE_RELATIVE = Prefiltered(re.compile(
    rf"^\W*({_RELATION})(?:(?:\s+(?-i:[A-Z][a-z]+))?['’]s\s+\w+(?:['’]s|\s+(?:is|was|are|were)|:)\s"
    rf"|\s+(?-i:[A-Z][a-z]+)\s+(?:is|was|has|{ACTS})(?!\w))", re.I))
"""A relative's thing leading a chat line or a note with no "my" ("wife's birthday's the 9th", "partner's mobile: ...",
"sister Ola lives in Gdansk"): still the speaker's relative
("landlord's put the rent up" is the landlord having done something, about the user's rent)."""
RELAYED = Prefiltered(re.compile(
    rf"^\W*(?:my|our)\s+(?:\w+\s+)?(?:{_RELATION})\s+(?:says?|said|thinks?|thought|reckons?|"
    r"claims?|insists?|swears?|believes?|is convinced)\b", re.I))
"""The user passing on someone else's word ("my sister thinks I live in Madrid", "my mum reckons ..."): that
person's hearsay, weighed as a third party's (the user is the authority on themselves, not on what others say)."""


def of_relative(text: str, other: str) -> bool:
    """``text`` is about someone of the speaker's, named first ("My wife's birthday is June 9", "my son is
    5", "the kids' dentist"), whom ``other`` does not mention ("the dog's name is Max" is still about "my dog")."""
    said = relation(text)
    return said is not None and re.search(rf"\b{said}", other, re.I) is None


_NAMING = Prefiltered(re.compile(rf"^\W*(?i:(?:my|our)\s+(?:{_RELATION})"
                                 rf"(?:['’]s\s+name\s+is|\s+(?:is|was)(?:\s+called|\s+named)?)\s+)[A-Z]"))
"""A relative named ("My cat is called Tom", "My partner's name is Sam"): the capital starts the name."""


def named_in(claim: str, entry: str) -> bool:
    """One text names the speaker's relative ("My cat is called Tom") and the other says that name ("Tom passed away", in
    chat's lower case too: "me and sam split"): one of them speaks of the relative by name, so the two are about the same one."""
    return any((m := _NAMING.search(a)) and (name := _name_at(a, m.end() - 1)) and re.search(rf"\b{re.escape(name)}\b", b, re.I)
               for a, b in ((claim, entry), (entry, claim)))


def _name_at(text: str, start: int) -> str:
    """The name said from ``start``, its last word ("Dr Shah" is Shah: a title names no one)."""
    said = re.match(r"[A-Z][\w'.-]*(?:\s+[A-Z][\w'-]*)*", text[start:])
    return said.group(0).split()[-1].removesuffix("'s") if said else ""


_ROLES = frozenset("manager boss colleague neighbour neighbor roommate landlord landlady doctor dentist team assistant "
                   "teacher coach flatmate housemate".split())
"""Relations that are roles the speaker fills ("my dentist is dr okafor" says who the user's dentist is), not kin."""


def about_relative(text: str, other: str) -> bool:
    """``text`` is about one of the speaker's kin, said of them and not naming them ("my partner is a celtics fan"; not
    "my partner is Sam", nor "my dentist is dr okafor", the speaker's own attribute), whom ``other`` does not mention
    by any name ("sis" is the sister)."""
    said = relation(text)
    return said is not None and said.lower() not in _ROLES and not _NAMING.search(text) \
        and not any(_named(w) == _named(said.lower()) for w in re.findall(r"[a-z]+", other.lower()))


@lru_cache(maxsize=65536)
def relation(text: str) -> str | None:
    """The relation word ``text`` starts with (``_RELATIVE``), cached per text: asked of every pair."""
    return found.group(1) if (found := _RELATIVE.search(text) or _BARE_RELATIVE.search(text)) else None
