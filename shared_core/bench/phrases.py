"""Wording for the episode generator: many phrasings per attribute and event, first and third person,
note style and tool-output style, so a policy cannot learn the templates instead of the situation."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Attribute:
    key: str
    values: tuple[str, ...]
    state: tuple[str, ...]
    update: tuple[str, ...] = ()
    hedge: tuple[str, ...] = ()
    report: tuple[str, ...] = ()
    echo: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    multi: bool = False
    tool_ok: bool = False


CITIES = ("Lisbon", "Berlin", "Porto", "Madrid", "Toronto", "Austin", "Denver", "Kyoto", "Nairobi", "Dublin",
          "Warsaw", "Oslo", "Melbourne", "Seattle", "Chicago", "Lyon", "Utrecht", "Bogota", "Seoul", "Cairo")
COMPANIES = ("Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods", "Hooli",
             "Vandelay Imports", "Soylent Labs", "Pied Piper", "Cyberdyne", "Tyrell Systems", "Monarch Bank")
ATTRIBUTES: list[Attribute] = [
    Attribute(
        "home", CITIES,
        state=("I live in {v}", "{n} lives in {v}", "My home is in {v}", "{n} is based in {v}", "home city: {v}",
               "{n} resides in {v}", "I'm living in {v}", "Our flat is in {v}"),
        update=("I moved to {v} last month", "{n} has relocated to {v}", "We just moved to {v}", "New home city: {v}",
                "{n} now lives in {v}", "I live in {v} now", "Since the move, home is {v}", "{n} changed city to {v}"),
        hedge=("I might move to {v} next year", "Maybe we'll relocate to {v}", "I'm thinking about moving to {v}",
               "{n} may be moving to {v}, not sure yet", "Possibly relocating to {v} soon"),
        report=("My sister says {n} lives in {v}", "According to an old web profile, {n} lives in {v}",
                "Someone mentioned {n} is based in {v}", "A search result lists {n}'s city as {v}",
                "The assistant guesses {n} lives in {v}", "An outdated contact card shows {v} as the city"),
        echo=("Noted: you live in {v}", "Got it, {v} is home", "Confirming {n}'s city is {v}"),
    ),
    Attribute(
        "employer", COMPANIES,
        state=("I work at {v}", "{n} works for {v}", "My employer is {v}", "{n} is employed by {v}",
               "employer: {v}", "I'm on the payroll at {v}", "{n} has a job at {v}"),
        update=("I just started a new job at {v}", "{n} switched jobs and now works at {v}",
                "I left my old job, I'm at {v} now", "{n} joined {v} this week", "New employer: {v}",
                "As of Monday I work for {v}"),
        hedge=("I have an interview at {v}, might join them", "{n} is probably joining {v}",
               "I'm considering an offer from {v}", "Not sure yet, but I may work for {v} soon"),
        report=("LinkedIn lists {n} at {v}", "A colleague said {n} works at {v}", "I heard {n} works for {v}",
                "A scraped profile claims {n}'s employer is {v}"),
        echo=("So you're with {v}", "Right, {n} is at {v}"), tool_ok=True,
    ),
    Attribute(
        "title", ("software engineer", "nurse", "product manager", "teacher", "data analyst", "architect",
                  "senior director", "sales lead", "pharmacist", "chef", "paralegal", "UX designer"),
        state=("I'm a {v}", "{n} works as a {v}", "My job title is {v}", "{n}'s role: {v}", "I work as a {v}"),
        update=("I got promoted to {v}", "{n} is now a {v}", "My new title is {v}", "{n} became a {v} this spring",
                "Changed roles, I'm a {v} now"),
        hedge=("I might become a {v}", "{n} could be promoted to {v} soon", "I'm hoping to be a {v} by summer"),
        report=("HR records list {n} as a {v}", "A friend thinks {n} is a {v}", "The bio on a conference site says {v}"),
        echo=("You mentioned you're a {v}",),
    ),
    Attribute(
        "partner", ("Sam", "Priya", "Jonas", "Mei", "Carlos", "Fatima", "Luca", "Hannah", "Omar", "Ines"),
        state=("My partner's name is {v}", "{n} is married to {v}", "{n}'s spouse is {v}", "I live with my partner {v}",
               "partner: {v}"),
        update=("I'm now engaged to {v}", "{n} is now with {v}", "My new partner is {v}",
                "We broke up; I'm seeing {v} now"),
        hedge=("I might be dating {v}, it's early", "{n} may be seeing {v}"),
        report=("A neighbour said {n}'s partner is {v}", "Gossip says {n} is with {v}"),
        echo=("Your partner {v}, right",),
    ),
    Attribute(
        "phone", ("+1 555 0134", "+44 20 7946 0321", "+351 912 345 678", "+49 30 901820", "+1 415 555 0199",
                  "+34 600 123 456", "+81 3 1234 5678"),
        state=("My phone number is {v}", "Reach {n} at {v}", "{n}'s mobile: {v}", "Call me on {v}", "phone: {v}"),
        update=("I got a new number: {v}", "{n}'s phone changed to {v}", "Use {v} from now on",
                "Updated mobile number {v}"),
        hedge=("I think my work line is {v}, not 100% sure", "{n}'s number might be {v}"),
        report=("An old email signature shows {v} for {n}", "A directory lists {n}'s phone as {v}"),
        echo=("Saved {v} as your number",), tool_ok=True,
    ),
    Attribute(
        "diet", ("vegetarian", "vegan", "pescatarian", "gluten-free", "keto", "halal", "dairy-free"),
        state=("I'm {v}", "{n} follows a {v} diet", "{n} eats {v}", "diet: {v}", "I keep a {v} diet"),
        update=("I've gone {v}", "{n} switched to a {v} diet", "I'm {v} now", "No more meat for me, I'm {v} since May"),
        hedge=("I might try going {v}", "{n} is maybe going {v}", "Thinking about a {v} diet"),
        report=("The restaurant booking says {n} is {v}", "My mom thinks {n} is {v}"),
        echo=("Noted your {v} diet",),
    ),
    Attribute(
        "salary", ("52,000", "61,500", "74,000", "88,200", "95,000", "120,000", "15,700", "18,000"),
        state=("I earn {v} a year", "{n}'s salary is {v}", "My income is {v} per year", "salary: {v}"),
        update=("I got a raise, I now earn {v}", "{n}'s salary went up to {v}", "My new income is {v}"),
        hedge=("I might get {v} after the review", "Probably around {v} next year"),
        report=("A payroll leak lists {n} at {v}", "A coworker guessed {n} earns {v}"),
        tool_ok=True,
    ),
    Attribute(
        "gym", ("Mondays", "Tuesdays and Thursdays", "weekends", "every morning", "Wednesdays", "Fridays"),
        state=("I go to the gym on {v}", "{n} works out {v}", "Gym days: {v}", "I train {v}"),
        update=("I moved my workouts to {v}", "{n} now trains {v}", "Gym is {v} now"),
        hedge=("I might switch gym to {v}", "Maybe training {v} from next month"),
        report=("The trainer thinks {n} comes in {v}",),
    ),
    Attribute(
        "car", ("Toyota Corolla", "Tesla Model 3", "VW Golf", "Honda Civic", "Ford Focus", "Kia Niro", "Mazda 3"),
        state=("I drive a {v}", "{n} owns a {v}", "My car is a {v}", "car: {v}"),
        update=("I sold my old car and bought a {v}", "{n} now drives a {v}", "New car: {v}"),
        hedge=("I'm thinking of buying a {v}", "{n} might get a {v}"),
        report=("A parking permit lists a {v} for {n}", "My brother says {n} drives a {v}"),
    ),
    Attribute(
        "languages", ("Spanish", "French", "German", "Portuguese", "Japanese", "Swahili", "Polish", "Korean"),
        state=("I speak {v}", "{n} is fluent in {v}", "{n} speaks {v}", "language: {v}"),
        add=("I also speak {v}", "{n} speaks {v} too", "{n} is fluent in {v} as well", "Besides that, I know {v}",
             "Another language {n} speaks: {v}"),
        hedge=("I might start learning {v}", "{n} may pick up {v}"),
        echo=("You speak {v}, noted",), multi=True,
    ),
    Attribute(
        "pets", ("Biscuit", "Luna", "Max", "Pepper", "Miso", "Rex", "Nala", "Ziggy"),
        state=("I have a dog called {v}", "{n}'s cat is named {v}", "Our pet is {v}", "pet: {v}"),
        add=("We also adopted a kitten named {v}", "{n} got another dog, {v}", "Plus a rabbit called {v}",
             "In addition there's {v}, our parrot"),
        hedge=("We might adopt a puppy, maybe name it {v}",), echo=("Say hi to {v}",), multi=True,
    ),
    Attribute(
        "allergies", ("peanuts", "shellfish", "penicillin", "pollen", "cats", "gluten", "latex"),
        state=("I'm allergic to {v}", "{n} has a {v} allergy", "allergy: {v}", "{n} reacts badly to {v}"),
        add=("I'm also allergic to {v}", "{n} is allergic to {v} as well", "Another allergy: {v}"),
        hedge=("I think I might be allergic to {v}", "Possibly a {v} allergy, waiting for tests"),
        echo=("Noted the {v} allergy",), multi=True,
    ),
]


def _codes(n: int, seed: int) -> tuple[str, ...]:
    """Reference codes in the shapes people paste (A-7731, BK20931, 4471-22): ids without a slot."""
    r = random.Random(seed)
    shapes = ("{L}-{d4}", "{L}{L}{d5}", "{d4}-{d2}", "{L}{d3}{L}", "#{d5}", "{L}{L}-{d3}")
    out = []
    for _ in range(n):
        out.append(r.choice(shapes).format(L=r.choice("ABCDEFGHJKMNPRSTUVWXYZ"), d2=r.randint(10, 99),
                                           d3=r.randint(100, 999), d4=r.randint(1000, 9999), d5=r.randint(10000, 99999)))
    return tuple(dict.fromkeys(out))


ATTRIBUTES += [
    Attribute(
        "order_ref", _codes(40, 11),
        state=("My order id is {v}", "{n}'s order number is {v}", "Order reference: {v}", "The order I placed is {v}",
               "I'm waiting on order {v}", "{n} placed order {v}"),
        update=("Actually my order id is now {v}", "My order number changed to {v}", "The order was reissued as {v}",
                "Correction: the order id is {v}", "{n}'s new order number is {v}", "Scratch that, the order is {v} now",
                "They replaced the order, it's {v} now"),
        hedge=("I think the order id might be {v}", "Not sure, maybe the order is {v}"),
        report=("An old email mentions order {v} for {n}", "A forwarded receipt shows order {v}"),
        echo=("Order {v} noted", "Tracking order {v} for you"), tool_ok=True,
    ),
    Attribute(
        "member_id", _codes(40, 12),
        state=("My membership number is {v}", "{n}'s loyalty card number is {v}", "member id: {v}",
               "Customer number {v} belongs to {n}", "My account number is {v}"),
        update=("I got a new membership number, {v}", "{n}'s member id was changed to {v}", "New loyalty number: {v}",
                "My customer number is {v} now", "Actually the account number is {v}, they switched it"),
        hedge=("My member number is probably {v}", "I believe the account number could be {v}"),
        report=("A stale CRM record lists {n}'s member id as {v}",), echo=("Saved member id {v}",), tool_ok=True,
    ),
    Attribute(
        "bookings", _codes(40, 13),
        state=("I have a booking under reference {v}", "{n}'s reservation code is {v}", "booking: {v}"),
        add=("I also have another booking, {v}", "There's a second reservation too: {v}",
             "Another booking code for {n}: {v}", "Plus one more reservation, {v}"),
        hedge=("There might be another booking, maybe {v}",), echo=("Booking {v} is on file",), multi=True,
    ),
    Attribute(
        "drink", ("tea", "coffee", "green tea", "espresso", "oat milk lattes", "sparkling water", "hot chocolate",
                  "rooibos", "cold brew"),
        state=("I prefer {v}", "{n} prefers {v}", "{n} likes {v} best", "My usual drink is {v}", "{n} always orders {v}",
               "I drink {v} in the morning"),
        update=("Actually I prefer {v} now", "{n} switched to {v}", "These days I drink {v} instead",
                "I changed my usual order to {v}", "{n} no longer drinks the old stuff, only {v} now"),
        hedge=("I might prefer {v}, not sure", "{n} seems to like {v}"),
        report=("The barista thinks {n} prefers {v}", "A cafe app lists {v} as {n}'s favourite"),
        echo=("Noted, {v} it is",),
    ),
    Attribute(
        "colour", ("blue", "green", "red", "purple", "yellow", "teal", "orange", "black"),
        state=("My favourite colour is {v}", "{n}'s favourite colour is {v}", "{n} loves the colour {v}",
               "favourite color: {v}", "I like {v} more than any other colour"),
        update=("My favourite colour is {v} now", "{n}'s favourite colour changed to {v}",
                "I've switched favourites, it's {v} now", "New favourite color: {v}"),
        hedge=("Maybe {v} is my favourite colour", "{n} probably likes {v}"),
        report=("A friend claims {n}'s favourite colour is {v}",), echo=("{v}, your favourite colour",),
    ),
    Attribute(
        "hobbies", ("hiking", "chess", "pottery", "climbing", "baking", "photography", "cycling", "knitting"),
        state=("I enjoy {v}", "{n}'s hobby is {v}", "{n} is into {v}", "hobby: {v}", "In my free time I do {v}"),
        add=("I also enjoy {v}", "{n} took up {v} too", "Another hobby of {n}'s: {v}", "Besides that, {v} as well"),
        hedge=("I might try {v}", "{n} may take up {v}"), echo=("Nice, {v}",), multi=True,
    ),
]

RELAY_SUBJECTS = ("The user", "User", "the user", "The customer", "the person I'm helping")
"""How an agent's memory tool names the person it relays facts about."""
RELAY_FRAMES = ("{t}", "{t}", "Remember: {t}", "Note: {t}", "Memory: {t}", "FYI {t}", "Fact about the user: {t}",
                "{t} (mentioned today)", "Saving for later: {t}", "User said: \"{q}\"", "The user told me \"{q}\"",
                "Quote from the user: '{q}'")
"""An agent's ``remember`` call relays what the user said: third person ({t}) or quoting them ({q})."""
GUESS_FRAMES = ("Maybe {t}", "Possibly {t}", "I suspect {t}", "It seems {t}", "My guess is {t}", "Probably {t}",
                "{t}, probably", "{t} (unconfirmed)", "It appears {t}, not confirmed", "Presumably {t}")
"""An assistant's own inference about the user, worded as one: hedged, so it waits for verification."""

_IRREGULAR = {"have": "has", "go": "goes", "do": "does", "am": "is", "'m": "is"}
_PAST = frozenset("got just left sold broke became bought took made was".split())


def third_person(text: str, subject: str) -> str:
    """Rewrites a first-person statement about oneself into the agent's third person ("I live in X" ->
    "The user lives in X"); leaves text without a first-person subject as it is."""
    import re

    m = re.match(r"(I'm|I am|I've|I|My|Our)\s+(\S+)(.*)", text)
    if not m:
        return text
    head, word, rest = m.groups()
    if head in ("My", "Our"):
        return f"{subject}'s {word}{rest}"
    if head in ("I'm", "I am"):
        return f"{subject} is {word}{rest}"
    if head == "I've":
        return f"{subject} has {word}{rest}"
    if word.endswith("ed") or word in _PAST:
        return f"{subject} {word}{rest}".replace(" my ", " their ").replace(" me ", " them ")
    verb = _IRREGULAR.get(word) or (word + "es" if word.endswith(("s", "sh", "ch", "x")) else word + "s")
    return f"{subject} {verb}{rest}".replace(" my ", " their ").replace(" me ", " them ")



@dataclass(frozen=True)
class ToolKind:
    key: str
    templates: tuple[str, ...]
    make: Callable[[random.Random], dict[str, str]]
    change: Callable[[random.Random, dict[str, str]], dict[str, str]]


def _code(rng: random.Random, letters: str, digits: int) -> str:
    return "".join(rng.choice(letters) for _ in range(2)) + "".join(rng.choice("0123456789") for _ in range(digits))


_STATUS = ("processing", "packed", "shipped", "out for delivery", "delivered", "delayed")
_PEOPLE = ("Ana", "Bruno", "Chen", "Dana", "Eli", "Farah", "Goran", "Hiro")
TOOLS: list[ToolKind] = [
    ToolKind(
        "order",
        ("Order #{id} status: {status}", "orders.get({id}) -> status={status}", "Shipment {id} is {status}",
         "order_id={id} state={status} eta={eta}", "Your order {id} is currently {status}"),
        lambda r: {"id": _code(r, "ABCDEFGHJK", 5), "status": r.choice(_STATUS[:3]), "eta": f"{r.randint(1, 28)} March"},
        lambda r, o: {"status": r.choice([s for s in _STATUS if s != o["status"]]), "eta": f"{r.randint(1, 28)} April"},
    ),
    ToolKind(
        "ticket",
        ("Ticket {id} assigned to {who}, priority {prio}", "jira: {id} | assignee {who} | {prio}",
         "Issue {id} is with {who} ({prio} priority)"),
        lambda r: {"id": f"OPS-{r.randint(100, 9999)}", "who": r.choice(_PEOPLE), "prio": r.choice(["low", "high"])},
        lambda r, o: {"who": r.choice([p for p in _PEOPLE if p != o["who"]]), "prio": r.choice(["low", "high", "urgent"])},
    ),
    ToolKind(
        "flight",
        ("Flight {id} departs {time} from gate {gate}", "flight_status({id}): gate {gate}, departure {time}",
         "{id} boarding at gate {gate}, leaves {time}"),
        lambda r: {"id": _code(r, "LHBAUAAF", 4), "time": f"{r.randint(6, 22)}:{r.choice(['05', '30', '45'])}",
                   "gate": f"{r.choice('ABCD')}{r.randint(1, 40)}"},
        lambda r, o: {"time": f"{r.randint(6, 22)}:{r.choice(['10', '20', '55'])}", "gate": f"{r.choice('EFG')}{r.randint(1, 40)}"},
    ),
    ToolKind(
        "balance",
        ("Account {id} balance: ${amount}", "bank.balance(account={id}) = {amount} USD", "Balance on {id} is ${amount}"),
        lambda r: {"id": f"ACC{r.randint(1000, 9999)}", "amount": f"{r.randint(100, 9000)}.{r.randint(10, 99)}"},
        lambda r, o: {"amount": f"{r.randint(100, 9000)}.{r.randint(10, 99)}"},
    ),
]

CHITCHAT = ("thanks!", "ok sounds good", "haha nice", "Sure, go ahead.", "Can you remind me later?", "cool",
            "What do you think?", "Good morning!", "let me check", "Perfect, thank you so much", "yep", "hmm",
            "nah that's fine", "great, cheers", "no worries", "one sec", "ha, fair enough", "Sounds like a plan!",
            "Could you repeat that?", "ok", "awesome thanks a lot", "right", "hi", "hello!", "hey there",
            "good evening", "bye for now", "talk soon", "thank you", "got it", "alright, sounds good", "hiya",
            "morning", "lol", "okay cool", "appreciate it", "see you later", "no problem", "wow nice")

FIRST = ("Martin", "Aisha", "Noah", "Leila", "Tomas", "Yuki", "Grace", "Ravi", "Elena", "Kofi", "Sofia", "Mateo",
         "Ingrid", "Amir", "Chloe", "Dmitri", "Zara", "Felix", "Nora", "Jun", "Olga", "Pablo", "Maya", "Ethan",
         "Lena", "Sipho", "Rosa", "Arjun", "Clara", "Hugo", "Ayla", "Victor", "Iris", "Kenji", "Lucia", "Oscar")
LAST = ("Mark", "Silva", "Okafor", "Nakamura", "Novak", "Haddad", "Berg", "Rossi", "Kim", "Mendes", "Patel",
        "Schmidt", "Dubois", "Kowalski", "Mensah", "Larsen", "Costa", "Ivanova", "Garcia", "Tanaka", "Ali",
        "Moreau", "Fischer", "Lopez", "Nguyen", "Brown", "Fernandes", "Sato", "Jensen", "Romero")
