"""Generated multi-session conversations between two friends: training data for the shipped scorer.

Why a second generator: the shipped weights must not be fit on LoCoMo (CC BY-NC), yet they are judged
on long personal conversations like it. The chats of :mod:`shared_core.lre.synthetic` are user–assistant
exchanges with one fact per template, where length alone separates facts from filler. Here two friends
talk over many sessions: personal events with dates, people, places and numbers; plans; preferences;
follow-up answers to the other's questions; and much that later questions never ask about — greetings,
reactions, questions, encouragement and long, general, supportive turns (so length alone is not
enough). Every fact turn comes with a later question and its answer, so the labels are either the
generator's own (``gold``) or self-labels computed from those answers (:func:`answer_coverage_labels`).

All words, names and templates are written here; nothing is taken from any dataset.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from shared_core.lre.synthetic import NAMES, PET_NAMES, PETS, PLACES, RELATIONS

CITY = PLACES + ["Boston", "Lyon", "Kyoto", "Porto", "Dublin", "Santiago", "Accra", "Hanoi"]
EVENT_KINDS = ["charity gala", "pride parade", "jazz festival", "farmers market", "science fair", "book signing",
               "community picnic", "art exhibition", "music concert", "street food festival", "wedding", "camping trip"]
ACTIVITIES = ["pottery", "salsa dancing", "rock climbing", "painting", "the violin", "surfing", "knitting",
              "archery", "improv theatre", "beekeeping", "calligraphy", "kickboxing", "gardening", "chess"]
ORGS = ["a small bakery", "the children's hospital", "a tech startup", "the public library", "a law firm",
        "an animal shelter", "the local newspaper", "a design studio", "a community center"]
CAUSES = ["mental health awareness", "the homeless shelter", "cancer research", "animal rescue", "clean oceans"]
BOOKS = ["The Quiet Garden", "Notes from the River", "Becoming Brave", "The Last Lighthouse", "Stars Over Nairobi",
         "A Year of Small Things", "Finding North"]
FOODS = ["lasagna", "pad thai", "banana bread", "homemade ramen", "apple pie", "tacos", "chocolate cake"]
ITEMS = ["a new car", "a used piano", "a camera", "a mountain bike", "a tent", "a sewing machine", "a drone"]
EMOTIONS = ["proud", "nervous", "free", "grateful", "inspired", "relieved", "emotional", "alive"]
PAST = ["yesterday", "last weekend", "last Friday", "two weeks ago", "last month", "a few days ago", "last summer",
        "in May", "on Sunday", "last year", "in 2022", "this morning"]
FUTURE = ["next month", "this summer", "in a couple of weeks", "next year", "in October", "this weekend", "soon"]
CAPTIONS = ["a group of people holding signs", "a dog sitting on a couch", "a plate of food on a table",
            "a painting of a sunset", "a woman standing on a beach", "a bookshelf full of books",
            "two kids playing in a park", "a cake with candles", "a mountain landscape", "a man playing guitar"]


@dataclass
class Dialogue:
    """One generated conversation: turns (speaker, text), which are facts, and questions with answers."""

    speakers: tuple[str, str]
    turns: list[tuple[str, str]]
    gold: list[bool]
    qa: list[tuple[str, str]]

    @property
    def texts(self) -> list[str]:
        return [t for _, t in self.turns]


def _event(r: random.Random, other: str) -> tuple[str, str, str]:
    """(statement, question, answer) for one personal event."""
    t, city, rel, name = r.choice(PAST), r.choice(CITY), r.choice(RELATIONS), r.choice(NAMES)
    k = r.randrange(10)
    if k == 0:
        ev = r.choice(EVENT_KINDS)
        s, q, a = f"{t} I went to a {ev} in {city} with my {rel} {name}", f"Where did they go to the {ev}?", f"{city}, with {name}"
    elif k == 1:
        act = r.choice(ACTIVITIES)
        s, q, a = f"I signed up for {act} classes {t}", "What classes did they sign up for?", f"{act} classes"
    elif k == 2:
        pet, pn = r.choice(PETS), r.choice(PET_NAMES)
        s, q, a = f"we adopted a {pet} named {pn} {t}", "What is the name of their pet?", f"{pn}, a {pet}"
    elif k == 3:
        km, cause = r.choice([5, 10, 21, 42]), r.choice(CAUSES)
        s, q, a = f"I ran a {km}k race {t} to raise money for {cause}", "What did they run the race for?", f"{cause}, a {km}k"
    elif k == 4:
        org = r.choice(ORGS)
        s, q, a = f"I started a new job at {org} {t}", "Where do they work now?", f"at {org}"
    elif k == 5:
        book = r.choice(BOOKS)
        s, q, a = f"I finished reading \"{book}\" {t} and it changed how I see things", "Which book did they finish?", book
    elif k == 6:
        s, q, a = f"I visited my {rel} {name} in {city} {t}", f"Who did they visit in {city}?", f"their {rel} {name}"
    elif k == 7:
        item, price = r.choice(ITEMS), r.randrange(60, 3000)
        s, q, a = f"I bought {item} {t} for {price} dollars", "What did they buy and for how much?", f"{item}, {price} dollars"
    elif k == 8:
        food = r.choice(FOODS)
        s, q, a = f"I cooked {food} for my {rel}'s birthday {t}", f"What did they cook for the {rel}'s birthday?", food
    else:
        n = r.randrange(2, 9)
        s, q, a = f"my {rel} and I volunteered at the shelter {t}, {n} hours in total", "How long did they volunteer?", f"{n} hours"
    opener = r.choice(["", "Guess what? ", "Hey, big news! ", "Oh, I forgot to tell you, ", f"{other}, ",
                       "You won't believe it, but ", "So "])
    tail = r.choice(["", " It was such an amazing experience.", f" It made me feel really {r.choice(EMOTIONS)}.",
                     " I'm still thinking about it.", " Honestly, it was the highlight of my month."])
    text = (opener + s[0].upper() + s[1:] if not opener or opener.endswith("! ") or opener.endswith("? ")
            else opener + s) + "." + tail
    return text, f"{q} ({t})", f"{a} {t}"


def _plan(r: random.Random) -> tuple[str, str, str]:
    when, city, act = r.choice(FUTURE), r.choice(CITY), r.choice(ACTIVITIES)
    k = r.randrange(4)
    if k == 0:
        return f"I'm planning a trip to {city} {when}, I can't wait!", "Where are they planning to travel?", f"{city} {when}"
    if k == 1:
        return f"I'm hoping to start {act} lessons {when}.", "What do they hope to start?", f"{act} lessons {when}"
    if k == 2:
        org = r.choice(ORGS)
        return f"I'm thinking about applying to {org} {when}, it's been my dream for years.", "Where do they want to apply?", org
    return (f"We're going to host a fundraiser for {r.choice(CAUSES)} {when}.", "What are they going to host?",
            f"a fundraiser {when}")


def _preference(r: random.Random) -> tuple[str, str, str]:
    k = r.randrange(4)
    if k == 0:
        act = r.choice(ACTIVITIES)
        return f"I've always loved {act}, it helps me clear my head after work.", "What hobby helps them relax?", act
    if k == 1:
        book = r.choice(BOOKS)
        return f"My favorite book is \"{book}\", I read it every year.", "What is their favorite book?", book
    if k == 2:
        food = r.choice(FOODS)
        return f"Honestly {food} is my comfort food, my grandma used to make it.", "What is their comfort food?", food
    city = r.choice(CITY)
    return f"{city} is my favourite place in the world, we go there every summer.", "Where do they go every summer?", city


def _followup(r: random.Random) -> tuple[str, str, str]:
    name, emotion, n = r.choice(NAMES), r.choice(EMOTIONS), r.randrange(3, 40)
    k = r.randrange(3)
    if k == 0:
        return (f"It felt {emotion}! {name} came along and we stayed until {r.randrange(8, 12)} pm.",
                "Who came along?", name)
    if k == 1:
        return (f"There were about {n} people there, and I met {name}, who runs a {r.choice(EVENT_KINDS)}.",
                "How many people were there?", f"about {n} people")
    return (f"I decided to do it because my {r.choice(RELATIONS)} inspired me, {r.choice(PAST)} actually.",
            "What inspired them?", "their family")


_GENERIC = [
    "It's so important to take care of yourself and to surround yourself with people who lift you up.",
    "Life gets busy sometimes, but the little moments with the people we love really make it worth it.",
    "I totally get that. Everyone goes through ups and downs, and it's okay to take things one day at a time.",
    "That's a great way to look at it. Finding something that gives you joy and purpose makes such a difference.",
    "You're right, we should always remember to be kind to ourselves, especially when things feel overwhelming.",
    "I think that's what friends are for. We support each other no matter what, and that means a lot to me.",
    "Change can be scary, but it also opens up so many new opportunities to grow and learn about yourself.",
    "Sometimes the best thing you can do is slow down, breathe, and appreciate how far you've come.",
]
_REACTIONS = [
    "Wow, {o}! That's awesome! How did it feel?", "That's so cool! What made you decide to do that?",
    "I'm so happy for you! Congrats!", "That sounds amazing! Did you have fun?", "Oh wow, really? Tell me more!",
    "No way! That's incredible, {o}.", "Aww, that's so sweet. How did everyone like it?", "Haha, love that!",
    "That's really inspiring, {o}. Keep it up!", "Sounds like a blast! Who went with you?",
]
_SMALL = [
    "Hey {o}! How's it going?", "Hi {o}, good to hear from you! It's been a while.", "{o}! So glad you messaged.",
    "Thanks, {o}! That means a lot to me.", "Yeah, it was really fun, thanks for asking!", "Haha, same here!",
    "I'm doing well, just busy with work and stuff.", "Take care, {o}! Talk soon.", "Bye! Let's catch up again soon.",
    "Definitely! I'll keep you posted.", "Thanks for always being there for me.", "Things have been pretty hectic lately.",
    "That's true!", "I know, right?", "You're the best, {o}!", "What about you? Anything new?",
]


def _picture(r: random.Random) -> str:
    return f" [image: {r.choice(CAPTIONS)}]" if r.random() < 0.15 else ""


def dialogue(r: random.Random, sessions: int = 12, turns_per_session: tuple[int, int] = (12, 28)) -> Dialogue:
    """One multi-session conversation; facts make up roughly a fifth to a third of the turns."""
    a, b = r.sample(NAMES, 2)
    turns: list[tuple[str, str]] = []
    gold: list[bool] = []
    qa: list[tuple[str, str]] = []

    def say(who: str, text: str, fact: bool, q: str = "", ans: str = "") -> None:
        turns.append((who, text + _picture(r)))
        gold.append(fact)
        if fact:
            qa.append((q, ans))

    for _ in range(sessions):
        who, other = (a, b) if r.random() < 0.5 else (b, a)
        say(who, r.choice(_SMALL[:3]).format(o=other), False)
        say(other, r.choice(_SMALL[3:12]).format(o=who), False)
        target = len(turns) + r.randrange(*turns_per_session)
        while len(turns) < target:
            who, other = other, who
            roll = r.random()
            if roll < 0.22:
                s, q, ans = _event(r, other)
                say(who, s, True, q, ans)
                say(other, r.choice(_REACTIONS).format(o=who), False)
                if r.random() < 0.6:
                    s, q, ans = _followup(r)
                    say(who, s, r.random() < 0.7, q, ans)
                    who, other = other, who
            elif roll < 0.32:
                s, q, ans = _plan(r)
                say(who, s, True, q, ans)
            elif roll < 0.40:
                s, q, ans = _preference(r)
                say(who, s, True, q, ans)
            elif roll < 0.65:
                say(who, " ".join(r.sample(_GENERIC, r.choice((1, 1, 2)))), False)
            elif roll < 0.80:
                say(who, r.choice(_REACTIONS).format(o=other), False)
            else:
                say(who, r.choice(_SMALL).format(o=other), False)
        say(who, r.choice(_SMALL[7:9]).format(o=other), False)
    return Dialogue((a, b), turns, gold, qa)


def dialogues(seed: int = 0, n: int = 40, sessions: tuple[int, int] = (6, 20)) -> list[Dialogue]:
    """``n`` conversations of varying length (deterministic for a seed)."""
    r = random.Random(seed)
    return [dialogue(r, sessions=r.randrange(*sessions)) for _ in range(n)]
