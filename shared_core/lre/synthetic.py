"""Generated chats and agent traces: training data for the shipped weights, fixtures for the benchmark.

The shipped scorer must not inherit a non-commercial licence from LoCoMo, so it is trained on data this
module generates (with the self-supervised labels of :mod:`shared_core.lre.labels`). Two kinds:

- **chats**: a user shares personal facts (people, places, dates, pets, purchases, plans) among
  greetings, questions, chit-chat and long generic advice; later the user asks about some of the facts
  and the assistant answers from them (the answers are what the coverage labels read).
- **agent traces**: a tool-using agent logs in (access token), loads an order (order id, customer id,
  invoice path), then wades through noisy steps (documentation searches, logs with throw-away request
  ids, retries, directory listings) and finally needs the early identifiers again.
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, Any]

NAMES = ["Maria", "John", "Priya", "Kenji", "Laura", "Omar", "Sofia", "Liam", "Aisha", "Mateo", "Chloe",
         "Noah", "Yuki", "Elena", "Ravi", "Grace", "Diego", "Hana", "Felix", "Zara", "Tomas", "Ines"]
RELATIONS = ["sister", "brother", "mom", "dad", "best friend", "coworker", "neighbour", "cousin", "boss", "roommate"]
PLACES = ["Denver", "Lisbon", "Osaka", "Toronto", "Nairobi", "Austin", "Prague", "Seattle", "Melbourne", "Oslo",
          "Cape Town", "Vancouver", "Edinburgh", "Monterrey"]
ACTIVITIES = ["a pottery class", "marathon training", "salsa lessons", "a photography workshop", "volunteering at the animal shelter",
              "a book club", "Spanish lessons", "rock climbing", "baking sourdough", "a charity run", "piano lessons",
              "a coding bootcamp", "community gardening", "a watercolour course"]
PETS = ["dog", "cat", "parrot", "rabbit", "puppy", "kitten"]
PET_NAMES = ["Max", "Luna", "Pepper", "Biscuit", "Milo", "Oreo", "Nala", "Rocky"]
OBJECTS = ["a vintage guitar", "a new laptop", "a road bike", "a telescope", "a sewing machine", "a kayak", "an espresso machine"]
TIMES = ["yesterday", "last weekend", "last Sunday", "two weeks ago", "in March", "on Friday", "last month", "in 2022",
         "three days ago", "last summer", "on my birthday", "in early May"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

FILLER_USER = [
    "Haha, yeah.", "Thanks! That means a lot.", "How are you today?", "Not much, just relaxing at home.",
    "That sounds fun!", "Wow, really?", "I agree, it's been a long week.", "Good morning!", "Okay, makes sense.",
    "I think rainy days are the best for reading.", "Honestly I just want to sleep all weekend.",
    "Lol, same here.", "Anyway, what were we talking about?", "I'm so tired today.", "Sure, go on.",
    "Do you ever feel like time just flies?", "That's a good point.", "I love that idea!", "Ugh, Mondays.",
]
FILLER_ASSISTANT = [
    "That's wonderful! How did it feel?", "Sounds like a great time.", "Congrats! What made you decide?",
    "I'm glad to hear that.", "That makes sense. Anything else on your mind?", "Haha, I get it!",
    "It's important to take breaks and enjoy the little things. Small routines, like a short walk in the "
    "morning or a cup of tea in the evening, can make a real difference to how the week feels.",
    "Many people find that writing things down helps. Keeping a simple journal, even just a few lines a "
    "day, makes it easier to notice patterns and to remember what went well.",
    "That's a thoughtful way to look at it.", "Totally understandable. Be kind to yourself.",
    "Good question! There are lots of ways to approach it, and the best one depends on what you enjoy and "
    "how much time you have. Starting small is usually the easiest way to keep going.",
    "How are you feeling about it now?", "That sounds relaxing!", "Oh no, I'm sorry to hear that.",
]


@dataclass
class Fact:
    statement: str
    question: str
    answer: str


def _fact(r: random.Random) -> Fact:
    name, rel, place, time = r.choice(NAMES), r.choice(RELATIONS), r.choice(PLACES), r.choice(TIMES)
    kind = r.randrange(7)
    if kind == 0:
        return Fact(f"My {rel} {name} moved to {place} {time}, so I'll be visiting a lot more.",
                    f"Remind me, where did my {rel} move?", f"{name} moved to {place} {time}.")
    if kind == 1:
        pet, pet_name = r.choice(PETS), r.choice(PET_NAMES)
        return Fact(f"We adopted a {pet} called {pet_name} {time}! The kids are obsessed.",
                    "What was the name of our new pet again?", f"Your {pet} is called {pet_name}; you adopted it {time}.")
    if kind == 2:
        act = r.choice(ACTIVITIES)
        return Fact(f"I started {act} {time}. The instructor, {name}, is really patient.",
                    "What did I start doing recently?", f"You started {act} {time}, with {name} as instructor.")
    if kind == 3:
        obj, price = r.choice(OBJECTS), r.randrange(80, 2400)
        return Fact(f"I finally bought {obj} for {price} dollars {time}.",
                    "How much did I pay for my last big purchase?", f"You paid {price} dollars for {obj}.")
    if kind == 4:
        day, hour = r.choice(WEEKDAYS), r.randrange(8, 18)
        return Fact(f"My appointment with Dr. {name} is on {day} at {hour}:00, please remind me.",
                    "When is my doctor's appointment?", f"Your appointment with Dr. {name} is on {day} at {hour}:00.")
    if kind == 5:
        return Fact(f"I'm flying to {place} in {r.choice(['June', 'October', 'December'])} for my {rel}'s wedding.",
                    "Why am I travelling soon?", f"You are flying to {place} for your {rel}'s wedding.")
    return Fact(f"I've been working at {r.choice(['a bakery', 'the city library', 'a startup', 'the hospital'])} "
                f"in {place} since {r.choice(['2019', '2021', 'last year'])}.",
                "Where do I work?", f"You work in {place}.")


def chat(r: random.Random, turns: int = 120) -> list[Message]:
    """One user–assistant chat with facts, filler and later recall questions."""
    msgs: list[Message] = [{"role": "system", "content": "You are a friendly personal assistant."}]
    facts: list[Fact] = []
    while len(msgs) < turns:
        roll = r.random()
        if roll < 0.25:
            f = _fact(r)
            facts.append(f)
            msgs += [{"role": "user", "content": f.statement},
                     {"role": "assistant", "content": r.choice(FILLER_ASSISTANT)}]
        elif roll < 0.45 and len(facts) > 2:
            f = r.choice(facts[:-1])
            msgs += [{"role": "user", "content": f.question}, {"role": "assistant", "content": f.answer}]
        else:
            msgs += [{"role": "user", "content": r.choice(FILLER_USER)},
                     {"role": "assistant", "content": r.choice(FILLER_ASSISTANT)}]
    return msgs


def _token(r: random.Random, n: int = 32) -> str:
    alphabet = string.ascii_letters + string.digits
    while True:
        t = "".join(r.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in t) and any(c.islower() for c in t) and any(c.isupper() for c in t):
            return t


def _hex(r: random.Random, n: int = 12) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n - 2)) + r.choice("abcdef") + r.choice("0123456789")


@dataclass
class Trace:
    """An agent trace; ``needed`` identifiers are introduced early and used in the last steps."""

    messages: list[Message]
    cut: int  # index of the first message of the final steps: trim messages[:cut]
    needed: list[str] = field(default_factory=list)


def tool_exchange(cid: str, name: str, args: dict[str, Any], result: str, say: str = "") -> list[Message]:
    """An assistant tool call and its result, in the neutral message format."""
    return [{"role": "assistant", "content": say, "tool_calls": [{"id": cid, "name": name, "args": args}]},
            {"role": "tool", "content": result, "tool_call_id": cid}]


def _call(r: random.Random, name: str, args: dict[str, Any], result: str, say: str = "") -> list[Message]:
    return tool_exchange(f"call_{_hex(r, 10)}", name, args, result, say)


def _noise_step(r: random.Random) -> list[Message]:
    kind = r.randrange(5)
    if kind == 0:
        topic = r.choice(["refund policy", "shipping delays", "warranty terms", "tax rules", "currency conversion"])
        text = " ".join(r.choice(FILLER_ASSISTANT[6:9] + FILLER_ASSISTANT[10:11]) for _ in range(r.randrange(2, 5)))
        return _call(r, "search_docs", {"query": topic}, f"Results for {topic}: {text}", "Let me check the documentation.")
    if kind == 1:
        lines = [f"2026-11-{r.randrange(1, 28):02d}T{r.randrange(24):02d}:{r.randrange(60):02d}Z INFO req={_hex(r)} "
                 f"{r.choice(['cache hit', 'queued', 'ok', 'heartbeat', 'retry scheduled'])}" for _ in range(r.randrange(4, 12))]
        return _call(r, "get_logs", {"service": r.choice(["billing", "gateway", "worker"])}, "\n".join(lines))
    if kind == 2:
        return _call(r, "get_rate_limit", {}, "HTTP 429 Too Many Requests: rate limit exceeded, retry after 2s",
                     "The API is throttling; retrying.")
    if kind == 3:
        files = " ".join(f"report_{r.randrange(100)}.txt" for _ in range(r.randrange(3, 9)))
        return _call(r, "list_dir", {"path": "/tmp/scratch"}, files)
    return [{"role": "assistant", "content": r.choice(["Still checking.", "Let me think about the next step.",
             "I'll verify a few more things before continuing.", FILLER_ASSISTANT[6]])}]


def agent_trace(r: random.Random, noise_steps: int = 60) -> Trace:
    """One tool-using trace whose early identifiers are needed again at the end."""
    name, order = r.choice(NAMES), f"ORD-{r.randrange(10000, 99999)}"
    customer, token = f"CUS-{r.randrange(1000, 9999)}", _token(r)
    invoice = f"/srv/invoices/2026/{r.randrange(1, 12):02d}/inv_{order[4:]}.pdf"
    msgs: list[Message] = [
        {"role": "system", "content": "You are an operations agent. Use the tools to resolve the task."},
        {"role": "user", "content": f"Customer {name} wants a refund for order {order}. Please handle it."},
    ]
    msgs += _call(r, "auth_login", {"user": "ops-bot"}, json.dumps({"access_token": token, "expires_in": 3600}),
                  "First I need to authenticate.")
    msgs += _call(r, "get_order", {"order_id": order, "token": token},
                  json.dumps({"order_id": order, "customer_id": customer, "amount": r.randrange(20, 900),
                              "invoice": invoice, "status": "delivered"}))
    for _ in range(noise_steps):
        msgs += _noise_step(r)
    cut = len(msgs)
    msgs += _call(r, "issue_refund", {"order_id": order, "customer_id": customer, "token": token},
                  json.dumps({"refund_id": f"RF-{r.randrange(10**5, 10**6)}", "status": "ok"}), "Issuing the refund now.")
    msgs += _call(r, "attach_file", {"path": invoice, "token": token}, "attached")
    msgs.append({"role": "assistant", "content": f"Refunded order {order} for customer {customer} ({name}); "
                 f"invoice {invoice} attached."})
    return Trace(msgs, cut, [token, order, customer, invoice])


def generate_corpus(seed: int = 0, chats: int = 60, traces: int = 40, chat_turns: int = 120,
                    noise_steps: int = 40) -> list[list[Message]]:
    """Full logs (chats and complete agent traces) for :func:`~shared_core.lre.fit.fit_from_logs`."""
    r = random.Random(seed)
    logs = [chat(r, chat_turns) for _ in range(chats)]
    logs += [agent_trace(r, noise_steps).messages for _ in range(traces)]
    return logs


DEFAULT_SPEC: dict[str, int] = {"chats": 60, "traces": 40, "chat_turns": 120, "noise_steps": 40}
