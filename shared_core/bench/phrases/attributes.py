"""What the generator's subjects have: attributes with their values and wordings.

A template with ``{n}`` speaks about a subject in the third person (``{n}`` is a name, "the user",
"my son Leo", "order #4471"); one without speaks in the first person and is used only by the user
about themselves. ``{v}`` is the value, ``{o}`` (multi-valued changes only) the value it replaces.
Values are chosen so that many changes carry no number, name or cue word (dark -> light mode, window
-> aisle, vegetarian -> vegan): a policy must read the value, not a digit or a capital letter.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Attribute:
    key: str
    label: str
    """A noun phrase for label-based wordings ("my {label} is {v}", JSON keys use ``key``)."""
    values: tuple[str, ...]
    state: tuple[str, ...]
    change: tuple[str, ...] = ()
    """A completed change (single-valued), or one value swapped for another (multi-valued, with ``{o}``)."""
    restate: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    hedge: tuple[str, ...] = ()
    """An uncertain or merely planned change: it has not happened, so it waits."""
    many: bool = False
    important: bool = False
    """Credentials, bank details, contact numbers: a change from a source that is not clearly trusted waits
    for verification rather than being rejected outright (it may be the real owner, or a scam)."""


USER: tuple[Attribute, ...] = (
    Attribute("city", "home city", ("Lisbon", "Berlin", "Porto", "Madrid", "Toronto", "Austin", "Kyoto", "Dublin",
                                    "Warsaw", "Oslo", "Leeds", "Seattle", "Lyon", "Utrecht", "Bogota", "Seoul"),
              state=("I live in {v}", "I'm based in {v}", "home is {v}", "we're in {v} these days", "our flat is in {v}",
                     "{n} lives in {v}", "{n} is based in {v}", "{n} resides in {v}", "{n} calls {v} home"),
              change=("I moved to {v}", "we just relocated to {v}", "big news: we're in {v} now", "finally settled in {v}",
                      "{n} moved to {v}", "{n} has relocated to {v}", "{n} packed up and went to {v}",
                      "signed the lease on a flat in {v}, still living out of boxes", "got the keys to our place in {v}",
                      "{n} has a {v} address these days"),
              restate=("still in {v}", "yep, {v} is home", "haven't left {v}", "{n} is still in {v}",
                       "{n} still lives in {v}"),
              hedge=("I might move to {v}", "thinking about moving to {v}", "we could end up in {v}, who knows",
                     "{n} may be moving to {v}", "{n} is weighing a move to {v}")),
    Attribute("employer", "employer", ("Acme Corp", "Globex", "Initech", "Hooli", "Umbrella Health", "Monarch Bank",
                                       "Stark Logistics", "Pied Piper", "Soylent Labs", "Wayne Foods"),
              state=("I work at {v}", "I'm with {v}", "my job is at {v}", "{n} works for {v}", "{n} is employed by {v}",
                     "{n} is on the payroll at {v}"),
              change=("I started at {v} this week", "left my old job, I'm at {v} now", "I joined {v}",
                      "{n} joined {v}", "{n} switched jobs to {v}", "{n} took the offer from {v}",
                      "first week at {v} done, new badge and everything", "{n} just got a {v} laptop and email"),
              restate=("still at {v}", "yep, {v} as always", "{n} is still with {v}"),
              hedge=("I have an interview at {v}", "might take the offer from {v}", "{n} is considering {v}")),
    Attribute("theme", "app theme", ("dark mode", "light mode", "high contrast", "sepia"),
              state=("I prefer {v}", "{v} please", "I use {v} everywhere", "{n} prefers {v}", "{n} uses {v}"),
              change=("{v} now", "switching to {v}", "actually {v} from here on", "{n} wants {v} now",
                      "{n} switched to {v}", "my eyes prefer {v} lately", "set everything to {v}"),
              restate=("{v} is still my thing", "keep {v}", "{n} still likes {v}"),
              hedge=("might try {v}", "maybe {v} at some point", "{n} might try {v}")),
    Attribute("seat", "seat preference", ("window", "aisle", "exit row", "middle"),
              state=("I like {v} seats", "{v} seat for me", "always book me a {v} seat", "{n} prefers a {v} seat",
                     "{n} books {v} seats"),
              change=("{v} seats from now on", "I'd rather have {v} these days", "book {v} instead",
                      "{v} works better for my knees", "{n} wants {v} seats now"),
              restate=("{v}, as usual", "still {v} please", "{n} still goes for {v}"),
              hedge=("maybe {v} next time", "{n} could go for {v} on the long flight")),
    Attribute("diet", "diet", ("vegetarian", "vegan", "pescatarian", "gluten-free", "keto", "halal", "omnivore"),
              state=("I'm {v}", "I eat {v}", "strictly {v} for me", "{n} is {v}", "{n} follows a {v} diet"),
              change=("I've gone {v}", "went {v} last month", "I'm {v} since spring", "{n} went {v}",
                      "{n} has been {v} since May",
                      "haven't touched the old stuff in months, fully {v}", "{n} only orders {v} food these days"),
              restate=("still {v}", "yep, {v}", "{n} is still {v}", "{n} eats {v}, same as ever"),
              hedge=("thinking of going {v}", "might try {v} for a while", "{n} is maybe going {v}")),
    Attribute("shift", "work shift", ("day shift", "night shift", "early shift", "weekend shift"),
              state=("I work the {v}", "I'm on the {v}", "{n} works the {v}", "{n} is on the {v}"),
              change=("switched to the {v}", "they put me on the {v}", "{n} moved to the {v}"),
              restate=("still on the {v}", "{n} is still on the {v}"),
              hedge=("I may get the {v}", "{n} might be moved to the {v}")),
    Attribute("commute", "commute", ("bike", "bus", "car", "train", "walking"),
              state=("I commute by {v}", "I get to work by {v}", "{n} commutes by {v}", "{n} goes to work by {v}"),
              change=("going by {v} now", "ditched the old way, it's {v}", "{n} takes the {v} now"),
              restate=("still by {v}", "{n} still commutes by {v}"),
              hedge=("might start going by {v}", "{n} might switch to {v}")),
    Attribute("kids", "number of kids", ("one", "two", "three", "four"),
              state=("I have {v} kids", "we've got {v} children", "{n} has {v} kids", "{n} is a parent of {v}"),
              change=("we're a family with {v} kids now", "baby arrived, so {v} kids", "{n} has {v} kids now"),
              restate=("yes, {v} kids", "{n} still has {v} kids"),
              hedge=("we might have {v} kids someday", "{n} may end up with {v} kids")),
    Attribute("manager", "manager", ("Dana Reyes", "Bruno Costa", "Chen Wei", "Farah Idris", "Goran Petrov", "Hiro Sato"),
              state=("my manager is {v}", "I report to {v}", "{n} reports to {v}", "{n}'s boss is {v}"),
              change=("I report to {v} now", "got a new boss, {v}", "{n} reports to {v} after the reorg"),
              restate=("still reporting to {v}", "{n} still reports to {v}"),
              hedge=("I might end up under {v}", "{n} may report to {v} after the reorg")),
    Attribute("phone", "phone number", ("+1 555 0134", "+44 20 7946 0321", "+351 912 345 678", "+49 30 901820",
                                        "+34 600 123 456"),
              state=("my number is {v}", "call me on {v}", "{n}'s mobile is {v}", "reach {n} at {v}"),
              change=("new number: {v}", "use {v} from now on", "{n} got a new phone, {v}"),
              restate=("yes, {v} is my number", "{n} is still on {v}"),
              hedge=("my work line might be {v}", "{n}'s number may be {v}"), important=True),
    Attribute("rent_account", "rent account", ("IBAN ending 4471", "IBAN ending 9902", "sort code 20-11-45",
                                               "the account ending 0183"),
              state=("I pay rent into {v}", "rent goes to {v}", "{n} pays rent into {v}", "{n}'s landlord uses {v}"),
              change=("landlord moved the rent account to {v}", "rent goes to {v} from now on",
                      "{n}'s landlord switched to {v}"),
              restate=("rent still goes to {v}", "{n} still pays into {v}"),
              hedge=("the landlord may switch to {v}", "{n}'s rent might move to {v}"), important=True),
    Attribute("likes", "favourite foods", ("sushi", "ramen", "tacos", "dumplings", "curry", "pizza", "falafel", "paella"),
              state=("I love {v}", "{v} is my favourite", "{n} loves {v}", "{n} is a big fan of {v}"),
              change=("I'm over {o}, it's {v} now", "{n} went off {o} and loves {v} instead"),
              restate=("{v}, always", "still crazy about {v}", "{n} still loves {v}"),
              add=("I also love {v}", "oh and {v}", "{v} too", "{n} likes {v} as well", "{n} also loves {v}"),
              hedge=("I might like {v}, never tried it", "{n} may like {v}"), many=True),
    Attribute("allergies", "allergies", ("peanuts", "shellfish", "penicillin", "pollen", "cats", "latex", "sesame"),
              state=("I'm allergic to {v}", "{v} makes me sick", "{n} is allergic to {v}", "{n} has a {v} allergy"),
              change=("turns out it's {v}, not {o}", "{n} outgrew the {o} allergy but reacts to {v} now"),
              restate=("yes, still the {v} allergy", "{n} still can't have {v}"),
              add=("also allergic to {v}", "{v} is a problem too", "{n} reacts to {v} as well",
                   "{n} has a {v} allergy too"),
              hedge=("might be allergic to {v}, waiting on tests", "{n} possibly reacts to {v}"), many=True),
    Attribute("languages", "languages", ("Spanish", "French", "German", "Japanese", "Swahili", "Polish", "Korean"),
              state=("I speak {v}", "{n} speaks {v}", "{n} is fluent in {v}"),
              change=("I dropped {o} and learn {v} now",),
              restate=("{v}, yes", "{n} still speaks {v}"),
              add=("I also speak {v}", "picked up {v} too", "{n} speaks {v} as well"),
              hedge=("might start {v} lessons", "{n} may pick up {v}"), many=True),
    Attribute("medication", "medications", ("metformin", "ibuprofen", "lisinopril", "sertraline", "vitamin D",
                                            "an inhaler", "antihistamines"),
              state=("I take {v}", "I'm on {v}", "{n} takes {v}", "{n} is on {v} daily"),
              change=("the doctor swapped {o} for {v}", "I'm off {o}, on {v} now", "{n} stopped {o} and takes {v}"),
              restate=("still taking {v}", "{n} is still on {v}"),
              add=("I also take {v}", "started {v} as well", "{n} takes {v} too"),
              hedge=("the doctor may put me on {v}", "{n} might start {v} after the checkup"), many=True),
    Attribute("doctor", "GP", ("Dr. Hollis", "Dr. Brandt", "Dr. Okoye", "Dr. Lindqvist", "the clinic on Elm Street"),
              state=("my GP is {v}", "I see {v}", "{n}'s doctor is {v}", "{n} is a patient of {v}"),
              change=("I switched to {v}", "registered with {v} instead", "{n} sees {v} now"),
              restate=("still seeing {v}", "{n} still sees {v}"),
              hedge=("might register with {v}", "{n} could switch to {v}")),
    Attribute("airport", "home airport", ("Lisbon airport", "Heathrow", "Schiphol", "JFK", "the small regional one"),
              state=("I fly out of {v}", "my home airport is {v}", "{n} flies from {v}"),
              change=("I fly from {v} these days", "{n} uses {v} now"),
              restate=("still flying out of {v}", "{n} still uses {v}"),
              hedge=("might start flying from {v}", "{n} may use {v}")),
    Attribute("team", "team members", ("Ana", "Eli", "Priya", "Jonas", "Mei", "Omar", "Ines", "Luca"),
              state=("{v} is on my team", "I work with {v}", "{n}'s team includes {v}", "{v} is on {n}'s team"),
              change=("{o} left the team, {v} took their place", "{v} replaced {o} on {n}'s team"),
              restate=("{v} is still with us", "{v} is still on {n}'s team"),
              add=("{v} joined my team too", "{v} is also on the team now", "{n} also has {v} on the team"),
              hedge=("{v} might join the team", "{v} may join {n}'s team"), many=True),
)

CHILD: tuple[Attribute, ...] = (
    Attribute("school", "school", ("Riverside Elementary", "Oakwood Academy", "Hillcrest Primary", "St Mary's",
                                   "Lakeside School", "the Montessori place"),
              state=("{n} goes to {v}", "{n} attends {v}", "{n} is at {v}", "{n}'s school is {v}"),
              change=("{n} changed schools, {v} now", "{n} started at {v}", "{n} moved to {v} this term"),
              restate=("{n} is still at {v}", "{n}'s still going to {v}"),
              hedge=("{n} might move to {v}", "we're looking at {v} for {n}")),
    Attribute("bedtime", "bedtime", ("early", "late", "half past seven", "eight sharp"),
              state=("{n}'s bedtime is {v}", "{n} goes to bed {v}", "{n} sleeps {v}"),
              change=("{n} goes to bed {v} now", "{n}'s bedtime moved to {v}"),
              restate=("{n} still goes to bed {v}",),
              hedge=("{n} might go to bed {v} in summer",)),
    Attribute("activities", "activities", ("piano", "swimming", "football", "chess club", "ballet", "karate", "violin"),
              state=("{n} does {v}", "{n} has {v} after school", "{n} is in {v}"),
              change=("{n} dropped {o} and does {v} instead", "{n} swapped {o} for {v}"),
              restate=("{n} still does {v}", "{n} is still in {v}"),
              add=("{n} also does {v}", "{n} started {v} too", "{n} has {v} as well now"),
              hedge=("{n} might try {v}", "{n} wants to try {v}, not signed up"), many=True),
    Attribute("allergies", "allergies", ("peanuts", "eggs", "dairy", "pollen", "bee stings"),
              state=("{n} is allergic to {v}", "{n} can't have {v}", "{n} has a {v} allergy"),
              change=("{n} outgrew {o}, but reacts to {v} now",),
              restate=("{n} still can't have {v}",),
              add=("{n} is allergic to {v} too", "{n} reacts to {v} as well"),
              hedge=("{n} might be allergic to {v}, tests next week",), many=True),
)

COLLEAGUE: tuple[Attribute, ...] = (
    Attribute("office", "office", ("Lisbon", "Berlin", "the London office", "remote", "the Austin hub"),
              state=("{n} works out of {v}", "{n} sits in {v}", "{n}'s office is {v}"),
              change=("{n} moved to {v}", "{n} is in {v} now"),
              restate=("{n} is still in {v}",), hedge=("{n} might move to {v}",)),
    Attribute("role", "role", ("team lead", "director", "principal engineer", "head of sales", "VP"),
              state=("{n} is the {v}", "{n} works as {v}", "{n}'s role is {v}"),
              change=("{n} got promoted to {v}", "{n} became {v}"),
              restate=("{n} is still the {v}",), hedge=("{n} might become {v}",)),
    Attribute("phone", "phone number", ("+1 555 0100", "+44 20 7000 1111", "+49 89 555 0101", "+33 1 55 55 01 01"),
              state=("{n}'s number is {v}", "reach {n} at {v}"),
              change=("{n} has a new number, {v}",), restate=("{n} is still on {v}",),
              hedge=("{n}'s number could be {v}",)),
)

ORDER: tuple[Attribute, ...] = (
    Attribute("status", "status", ("processing", "packed", "shipped", "out for delivery", "delivered", "delayed"),
              state=("{n} is {v}", "{n}: {v}", "status of {n} is {v}"),
              change=("{n} is {v} now", "{n} went to {v}", "{n} changed to {v}"),
              restate=("{n} is still {v}",), hedge=("{n} might be {v} by tomorrow",)),
    Attribute("address", "delivery address", ("12 Elm Street", "warehouse 3", "the office reception", "Locker 17",
                                              "44 Harbour Road"),
              state=("{n} ships to {v}", "{n} goes to {v}", "delivery for {n}: {v}"),
              change=("{n} now ships to {v}", "{n} was rerouted to {v}"),
              restate=("{n} still ships to {v}",), hedge=("{n} may be redirected to {v}",)),
)

TICKET: tuple[Attribute, ...] = (
    Attribute("assignee", "assignee", ("Ana", "Bruno", "Chen", "Dana", "Eli", "Farah"),
              state=("{n} is assigned to {v}", "{n} is with {v}", "{v} owns {n}"),
              change=("{n} was reassigned to {v}", "{v} took over {n}", "the keys to {n} are with {v} now"),
              restate=("{n} is still with {v}",), hedge=("{n} might go to {v}",)),
    Attribute("priority", "priority", ("low", "medium", "high", "urgent"),
              state=("{n} is {v} priority", "{n} priority: {v}"),
              change=("{n} bumped to {v}", "{n} is {v} priority now"),
              restate=("{n} is still {v}",), hedge=("{n} might go {v}",)),
)

TRIP: tuple[Attribute, ...] = (
    Attribute("hotel", "hotel", ("the Grand Plaza", "a small B&B", "the Ibis by the station", "an Airbnb in the old town"),
              state=("{n} is booked at {v}", "we're staying at {v} for {n}", "{n}: hotel is {v}"),
              change=("{n} moved to {v}", "rebooked {n} at {v}"),
              restate=("{n} is still at {v}",), hedge=("{n} might switch to {v}",)),
    Attribute("check_in", "check-in time", ("2 pm", "3 pm", "noon", "late evening"),
              state=("check-in for {n} is {v}", "{n} check-in: {v}"),
              change=("check-in for {n} moved to {v}", "{n} check-in is {v} now"),
              restate=("{n} check-in is still {v}",), hedge=("{n} check-in could be {v}",)),
    Attribute("flight", "flight", ("TP 1352", "LH 1173", "BA 499", "KL 1692", "the early flight"),
              state=("{n} flight is {v}", "flying {v} for {n}"),
              change=("{n} rebooked onto {v}", "{n} flight changed to {v}"),
              restate=("{n} is still on {v}",), hedge=("{n} might move to {v}",)),
)

SERVICE: tuple[Attribute, ...] = (
    Attribute("api_key", "API key", ("sk_live_4f9a22", "sk_live_b71c0e", "AKIA7Q2LX9", "ghp_3kT9zQ", "key-88d1f0"),
              state=("{n} key is {v}", "the {n} API key is {v}", "{n}: key {v}"),
              change=("rotated the {n} key, it's {v} now", "{n} key was regenerated: {v}"),
              restate=("{n} key is still {v}",), hedge=("the {n} key might be {v}",), important=True),
    Attribute("owner", "owner", ("Dana", "Eli", "Farah", "Goran", "the ops team", "the platform team"),
              state=("{v} holds the {n} credentials", "{n} is owned by {v}", "{n} access: {v}"),
              change=("the keys to {n} are with {v} now", "{v} took over {n}", "handed {n} over to {v}"),
              restate=("{v} still has {n}",), hedge=("{v} may take over {n}",), important=True),
    Attribute("mfa", "two-factor method", ("SMS codes", "an authenticator app", "a hardware key", "email codes"),
              state=("{n} uses {v} for 2FA", "2FA on {n}: {v}"),
              change=("{n} 2FA switched to {v}", "moved {n} to {v}"),
              restate=("{n} is still on {v}",), hedge=("{n} might move to {v}",), important=True),
)
