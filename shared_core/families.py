"""The attribute-family lexicon that slot inference (``slots``) reads: general attribute families of
personal, work and agent memory, each with the cues that name it and its cardinality, and the value
shapes (a phone number, an email address) that name one when no word does; and ``family``, the one a text's words
name.

Why a hand-written lexicon: it is what generalises to text nobody here has seen (it is written from
general English, not from any data set); the learned linker (``linking``) covers what it misses.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import CueScanner
from .written import _NUM

# (family, cue pattern, several values?) — the first family whose cue occurs wins, so specific before generic
FAMILIES: tuple[tuple[str, str, bool], ...] = (
    ("reminder", r"remind(?:er)?s?|to-?do|need to remember", True),
    ("name", r"call me(?=\s+(?!(?:on|at|back|later|tomorrow|tonight|whenever|any ?time|when|if|after|before|asap|again)\b)\w)|"
             r"calls? me(?=\s+(?-i:[A-Z]))|goes by|"
             r"(?:every(?:one|body)|they all|people|friends) calls? me(?=\s+\w+\s*(?:now|,|\.|$|and))|"
             r"(?:preferred|first|nick|given|full|legal) ?name",
     False),     # what one is called, before any other word of the sentence
    ("access_code", r"(?:door|gate|entry|entrance|alarm|lock|lockbox|key ?safe|keypad|building) code", False),
    ("credential", r"password|passcode|passphrase|pw|api[ _-]?key|token|secret|pin code|pin|ssh key|credentials?|2fa|"
                   r"login|recovery codes?|authenticator", False),
    ("card", r"(?:debit|credit|bank|visa|amex|mastercard) card|card (?:ending|ends)|new card|card number|iban|"
             r"sort code|bank account|account number|bank details", False),
    ("smoking", r"smok(?:e|es|ed|er|ing)|cigarettes?|cigs?|vap(?:e|es|ed|ing)|nicotine|fags?|packs? a day", False),
    ("blood_pressure", r"blood pressure|bp(?:_reading)?", False),
    ("blood_type", r"blood (?:type|group)|blood_(?:type|group)|rh\(?d\)? ?(?:pos\w*|neg\w*|\+|-)|"
                   r"(?-i:(?:AB|A|B|O)) ?(?:neg|pos)|(?-i:O) (?:negative|positive)", False),
    ("eyewear", r"glasses|varifocals|bifocals|contact lenses|contacts lenses|specs|spectacles|prescription lenses", False),
    ("allergy", r"allergic|allerg(?:y|ies)|intoleran(?:t|ce)", True),
    ("diet", r"vegetarian|veggie|vegan|pescatarian|keto|diet|eat(?:s|ing)? (?:meat|everything|anything)|omnivore|"
             r"plant[- ]based", False),
    ("restriction", r"gluten[- ]free|coeliac|celiac|dairy[- ]free|halal|kosher|lactose[- ]free|nut[- ]free", True),
    ("seat", r"seats?|aisle|gangway|window seat|bulkhead|exit[- ]row", False),
    ("sleep", r"bedtime|bed by|go to bed|goes to bed|asleep|sleeps?|wake up|wakes up|woke up|gets? up at|"
              r"up at \d{1,2}(?:[:.]\d\d)?(?: ?[ap]m)?|morning person|night owl", False),
    ("timezone", r"time ?zone|(?:utc|gmt|cet|cest|est|edt|pst|pdt|eastern|pacific|central|mountain|london|"
                 r"\w+ standard) time|utc[+-]\d+|on (?-i:[A-Z])\w+ time\b|"
                 r"(?<!\d )(?<!am )(?<!pm )"          # a zone's code said alone, not a timestamp's ("07:41 UTC")
                 r"(?-i:UTC|GMT|BST|CET|CEST|EET|EEST|EST|EDT|CST|CDT|MST|MDT|PST|PDT|JST|AEST|AEDT|NZST|SGT|HKT)", False),
    ("theme", r"dark mode|light mode|theme|dark theme|light theme|colou?r ?theme|solarized", False),
    ("age", r"turn(?:ed|s|ing) (?:\d{1,3}|" + _NUM + r")\b|\d{1,3} ?(?:yo|y/o|yrs old)|"
            r"(?:i'?m|i am|she's|he's|she is|he is|(?:the )?user is|they are|they're|(?-i:[A-Z][a-z]+) is|"
            r"^(?-i:[A-Z][a-z]+)'s|^(?!(?:it|that|there|what|here|who|he|she|let|where|how|today)')[a-z]+'s|"
            r"^is|^'s) "
            r"(?:\d{1,3}|" + _NUM + r")(?= *(?:now|today|already)? *(?:,? *(?:yeah|yep|yup|lol|haha|btw)\b)? *[.!]*$)",
     # "Zoe's eight now", "turned seven", "leo's eight yeah"
     False),
    ("emergency_contact", r"emergency contacts?|in case of emergency|ice contact|next of kin", False),   # before relatives
    ("kids", r"kid(?:s|dos?|dies)?|children|child|sons|daughters|bab(?:y|ies)|little ones|newborn|twins|pregnan\w*|expecting|"
             r"family of (?:\d|three|four|five|six|seven|eight)|(?:\w+ one|little \w+) (?:arrived|is here|was born)", False),
    ("friend", r"best (?:mate|friend)|mates?|friends?|bff|buddy", True),
    ("pronouns", r"pronouns?|she/her|he/him|they/them|she/they|he/they", False),
    ("notifications", r"notifications?|notifs?|alerts?|dms?|pings?|do not disturb|dnd", False),
    ("text_size", r"text size|font(?: size)?|text (?:bigger|smaller|up|down)|(?:bigger|smaller|larger) text|zoom", False),
    ("members", r"members?|on (?:the|my|our) team|joined the team|teammates?", True),
    ("pharmacy", r"(?:my|our|user's|usual|local|regular|nearest) (?:pharmacy|chemist)|(?:pharmacy|chemist) (?:is|was)\b|"
                 r"prescriptions? (?:from|at)|(?:switch\w*|chang\w+|mov\w+|us\w+) (?:my |our )?(?:pharmacy|chemist)",
     False),    # before the medicine
    ("medication", r"medications?|meds|prescri\w+|dose|dosage|\d+ ?mg|mg\b|pills?|tablets?|inhaler|antihistamine|statins?|"
                   r"antibiotics?|insulin|(?!(?:fine|line|wine|mine|nine|shine|online|offline|machine|engine|routine|magazine|"
                   r"(?:dead|land|pipe|head|time|base|guide|air|hot)line|discipline|caffeine|imagine|examine|determine|"
                   r"combine|decline|"
                   r"define|cuisine|sunshine|genuine|marine|valentine|caroline|quarantine|trampoline|"
                   r"[ck]atherine|kathrine|christine|justine|pauline|jasmine|geraldine|josephine|madeline|nadine|sabine|"
                   r"celine|janine|maxine|francine|claudine|evangeline|adeline|jacqueline|ernestine|clementine)\b)"
                   r"\w+(?:ine|statin|olol|azole|mycin|cillin|prazole)\b|\w{3,}pril\b", True),
    ("therapy", r"therapy|therapist|counsell?ing|counsell?or|sessions?|physio\w*", False),
    ("language", r"speaks?|fluent|language|learning (?:mandarin|arabic|spanish|french|german|japanese|"
                 r"italian|portuguese|korean|russian|hindi|dutch)|"
                 r"(?:in|into|to) (?:english|spanish|french|german|italian|portuguese|dutch|polish|japanese|chinese|korean)|"
                 r"(?:english|spanish|french|german|italian|portuguese|dutch|polish|japanese|chinese|korean) (?:please|pls|only)", True),
    ("favourites", r"(?:favou?rite|fave|fav) (?:\w+ )?\w{3,}(?<![su'])s\b|favou?rites|faves", True),    # plural
    ("favourite", r"(?:favou?rite|fave|fav\b)(?! colou?r)", False),   # one of a kind, before the kind (a colour's own)
    ("editor", r"editor|ide|vs ?code|neovim|n?vim|emacs|intellij|pycharm|sublime text|webstorm|xcode", False),
    ("instrument", r"plays? (?:the )?(?:cello|piano|guitar|violin|viola|drums|flute|ukulele|bass|sax\w*|trumpet)|"
                   r"cello|piano|guitar|violin|viola|drums|flute|ukulele|saxophone|trumpet|instrument", True),
    ("activity", r"activit(?:y|ies)|hobb(?:y|ies)|classes|lessons|judo|karate|swimming|ballet|"
                 r"(?<!the )(?<!st )(?<!gp )(?<!medical )(?<!dental )(?<!vet )(?<!surgery )practice(?! manager| nurse)|"
                 r"football|soccer|tennis|chess club|scouts|gymnastics|bouldering|climbing|(?:5|five)-a-side|futsal|"
                 r"netball|rugby|cricket|hockey|yoga|pilates|crossfit|rowing|badminton|padel|parkrun", True),
    ("team", r"supports?|support(?:er|ing)|fan of|a \w+ fan|die-?hard", False),
    ("music", r"music|playlist|songs?|bands?|genre|techno|jazz|hip[- ]hop|rap|rock|metal|podcasts?", True),
    ("food", r"food|cuisine|eat(?:s|ing)?|dish(?:es)?|restaurants?|takeaway|thai|korean|indian|italian|mexican|"
             r"sushi|ramen|pizza|curry", True),
    ("drink", r"coffee|lattes?|tea|espresso|cappuccinos?|flat whites?|cortados?|americanos?|macchiatos?|mochas?|"
              r"drinks?|drinking|beers?|wine|alcohol|booze|sober|"
              r"teetotal|dry (?:january|year)|caffeine|decaf", False),
    ("likes", r"(?<!, )(?<!feels )(?<!looks )(?<!sounds )(?<!seems )(?<!more )(?<!just )(?<!it's )(?<!is )(?<!was )"
              r"likes?(?!,|\s+(?:\d|about|around|every|each|always))|loves?(?! (?:it|this|that|them|her|him)\b)|enjoys?(?! (?:it|this|that)\b)|(?:i'?m|am|is|are|she's|he's|really|so|getting|got|been|very) into|fond of|big fan|obsessed|favou?rites? (?:foods?|things?)", True),
    ("dislikes", r"hates?|dislikes?|can't stand|cannot stand", True),
    ("colour", r"colou?rs?|purple|pink|teal|turquoise|lilac|violet|maroon|beige|burgundy|magenta", False),
    ("employer", r"(?:engineer|developer|manager|designer|analyst|consultant|director|scientist|officer|nurse|teacher|"
                 r"barista|chef|associate|intern|architect|accountant|lawyer|solicitor|administrator|specialist|"
                 r"coordinator|technician|researcher|editor|founder|cto|ceo|vp) at (?-i:[A-Z])[\w&'-]*+", False),
    # a job title at a name is where one works ("Software Engineer at Monzo", "Lab Manager at Helix Bio"): before
    # the manager's and the bank's own words
    ("manager", r"manager|boss|reports? to|supervisor|line manager", False),
    ("role", r"works? as|job title|role|position|promoted|profession|occupation|treasurer|secretary|"
             r"chair(?:man|woman|person)|vice[- ]chair|captain|vice[- ]captain|president", False),   # a club's or a committee's
    ("employer", r"works? (?:at|for)|working (?:at|for)|employer|company|job at|joined|hired|employed|"
                 r"(?<!for a )(?<!for my )(?<!for his )(?<!for her )(?<!for the )(?<!for their )new job|"
                 r"(?:start(?:ed|ing|s)?|began) at (?-i:[A-Z])[\w&-]*+(?! (?:High|Primary|Academy|School|College|Uni|University|"
                 r"Nursery|Kindergarten|Elementary|Middle|Prep|Montessori|Grammar|Sixth Form)\b)|"
                 r"took the \w+ job|job offer|quit|laid off|redundan\w+|first (?:week|day|month) at", False),
    ("bank", r"bank(?:s|ing)? with|main bank|current account|(?:salary|wages|pay) (?:goes |is |gets |lands |going )?(?:paid )?(?:in(?:to)?|to)\b|barclays|hsbc|lloyds|natwest|"
             r"santander|starling|halifax|nationwide|first direct|wells fargo|bank of america|capital one|n26|monzo|revolut", False),
    ("size", r"(?:shoe|dress|ring|clothes|jeans|shirt|trouser|waist|bra) size|size \d+|(?:i'?m|am) an? \d+(?:\.5)? in", False),
    ("residence", r"(?:lives|living) (?:in|with|near)|based in", False),     # before a place's words ("... near campus")
    ("on_call", r"on[- ]?call(?! with)|pager|override (?:created|active|scheduled)", False),     # before the school's
    # words: a rota's "primary", "secondary"; a paging tool's "override created - Platform primary s.ito"
    ("school", r"schools?|(?-i:[A-Z])[\w'-]+ (?-i:High|Academy|Elementary|Montessori)\b|attends|university|uni|college|"
               r"campus|studies at|teach(?:es)? at|enrolled|primary|"
               r"secondary|high school|nursery|kindergarten|daycare|year \d+|grade \d+", False),
    ("commute", r"commut(?:e|es|ed|ing)|drives? to work|cycles? to work|bikes? to work|"
                r"takes? the (?:bus|train|tube|metro|tram) to work|walks? to work|drive|cycles|cycling|"
                r"(?:biking|cycling|driving|walking) in(?! \w+ (?:park|woods|hills|forest|mountains))\b", False),
    ("shift", r"shifts?|works? (?:nights|days|weekends)|rota|(?:on|onto|to|doing|working) (?:nights|days|lates|earlies)", False),
    ("hours", r"full[- ]time|part[- ]time|(?:\d|four|three)[- ]day week|compressed hours|zero[- ]hours", False),
    ("temperature_unit", r"celsius|fahrenheit|centigrade", False),
    ("units", r"imperial|metric (?:units|system)|(?:in|to|use|prefers?|using) metric|units?[\"']?\s*[=:]\s*[\"']?metric", False),
    ("distance_unit", r"kilomet(?:re|er)s?|km|miles", False),
    ("visits", r"visited|visiting|been to|travell?ed to|trip to|holiday in|vacation in|"
               r"(?:i'?m|im|we'?re|you'?re) (?:\w+ )?in [\w'-]+(?: [\w'-]+)? "
               r"(?:for|till|until|this|on (?:holiday|vacation|business))",
     True),     # "i'm in Paris for the weekend": a stay, not where one lives
    ("residence", r"lives|live (?:in|at|with|near|on|by|out|abroad|here|there|together|alone|close|above|below|next)\b|"
                  r"living(?! room)|(?:moved|move|moving)(?= (?:to|into|in|out|house|home|back|abroad|away|here|there|down|up|over|across|flats?|cities|countr\w+|in with)\b)|relocat\w*|based in|home ?town|reside\w*|city|neighbou?rhood|"
                  r"apartment|flat|lease|i'?m in|im in|house|new place|"
                  r"(?:we|you)'?re (?:now |finally |all |still )?in(?= (?-i:[A-Z]))", False),    # "we're finally in Cardiff"
    ("birthplace", r"born in|birthplace|grew up in", False),
    ("birthday", r"birthday|b-?day|born on|date of birth|dob", False),
    ("age", r"years? old|aged?", False),
    ("weight", r"weigh(?:s|ed|ing|t)?|(?:lost|gained|down to|up to) \d+(?:\.\d)? ?(?:kg|kilos|lbs|pounds|stone)|"
               r"put on (?:a bit|weight|\d)", False),
    ("partner", r"married|eloped|tied the knot|got hitched|wife|husband|partner|girlfriend|boyfriend|spouse|engaged|"
                r"fianc\w*|single(?=\s*(?:$|[.,;!?)]|again|now|lol|tbh|and|but|since|for|mum|mom|dad|parent|mother|father))|"
                r"dating|divorced|"
                r"separated|widowed|relationship", False),
    ("pet", r"dogs?|cats?|pets?|puppy|kitten|greyhound|terrier|labrador|spaniel|hamster|rabbit|parrot", True),
    ("device", r"iphones?(?: \d+)?|pixel \d\w*|galaxy s\d+|"
               r"android(?: phones?)?(?! (?:apps?|studio|auto|tv|sdk|devs?|developers?))|macbook|thinkpad|chromebook|ipad|laptop|handset|"
               r"samsung(?: galaxy)?(?: s\d+)?", False),
    ("phone_plan", r"(?:port(?:ed|ing)?|mov(?:ed|ing)|took|taking|transferr(?:ed|ing)) (?:(?:my|our|his|her|the) )?"
                   r"(?:number|no)\b(?! plate)|(?:phone|mobile|cell)(?:['’]s| is) with|"
                   r"sim[- ]only|sim card|pay[- ]as[- ]you[- ]go|payg|(?:phone|mobile|cell) (?:contract|plan|provider|network|"
                   r"tariff|deal|carrier)|(?:network|mobile) provider|carrier",
     False),    # who carries the line, not its number: porting keeps the number
    ("phone", r"phone|mobile(?! (?:team|app|apps|dev\w*|games?|site|version|data))|cell|cell number|landline|home line|phone number|new number", False),
    ("email", r"e-?mail", False),
    ("address", r"address|street|postcode|zip code|ships?[- ]to|deliver(?:ed|y)? to", False),
    ("dentist", r"dentists?|orthodontists?|dental", False),
    ("optician", r"opticians?|optometrists?|eye doctor|ophthalmologist", False),
    ("vet", r"vets?|veterinar\w+", False),
    ("doctor", r"doctor|gp|cardiologist|physician|dermatologist|surgeon|therapist|dr\.?", False),
    ("health", r"(?:mental|physical) health|health status|condition|diagnos\w+|symptoms?", False),
    ("appointment", r"appointment|meeting|standup|stand-up|call at|scheduled|rescheduled|check-?in|check-?out|"
                    r"flight|departs|boarding|reservation|booking", False),
    ("deadline", r"deadline|due (?:on|by|date|in)|expir\w*|ends? (?:on|in)|lease|renew\w*|(?:valid|good|active) (?:till|until|to|through)|"
                 r"runs? out", False),
    ("price", r"price|costs?|salary|income|rent|budget|"
              r"(?:account|outstanding|remaining|available|card|loan|credit|closing|opening|bank) balance|"
              r"balance(?= *(?:$|is|was|:|=|due|now|left|owed|of [£$€\d]|[£$€\d]))|fee|\$|€|£|usd|eur|gbp", False),
    ("status", r"status|shipped|delivered|paid|unpaid|pending|failed|passed|open|closed|resolved|cancell?ed|"
               r"refunded|in transit|approved|merged|blocked|done", False),
    ("location", r"stored|located|location|kept|bin|warehouse|shelf|drawer|room|desk|parked|are with|is with|"
                 r"keys?|spare|safe|tin|lockbox", False),
    ("config", r"port|host|url|endpoint|version|config|region|timeout|limit|[a-z]{2}-[a-z]+-\d", False),
    ("car", r"car|vehicle|(?:drives|driving) (?:an?|that|this)(?= )", False),   # "drives a silver Corsa" is the car
    ("name", r"name is|called|named|goes by", False),
    ("preference", r"preferences?|prefers?|preferred|would rather|(?:i|we|they|he|she)'d rather", True),
)

# Closed classes of values: two texts about one of these attributes that each name a member the other
# lacks say different things ("dark mode" and "light mode now", "on nights" and "on days"), however the
# rest is worded. Single-valued attributes only: another language or pet is a further value, not a change.
VALUES: dict[str, str] = {
    "theme": r"dark|light",
    "seat": r"window|aisle|gangway|middle|bulkhead|exit[- ]row",
    "timezone": r"utc|gmt|bst|cet|cest|eet|eest|est|edt|cst|cdt|mst|mdt|pst|pdt|jst|aest|aedt|nzst|sgt|hkt",
    "diet": r"vegetarian|vegan|pescatarian|keto|omnivore|flexitarian|plant[- ]based|"
            r"(?<!n't )(?<!not )(?<!never )(?<!longer )eat(?:s|ing)? (?:meat|everything|anything)",   # not "don't eat meat"
    "shift": r"nights?|days|day shift|lates|earlies",
    "hours": r"full[- ]time|part[- ]time",
    "temperature_unit": r"celsius|fahrenheit|centigrade",
    "distance_unit": r"kilomet(?:re|er)s?|km|miles",
    "units": r"metric|imperial",
    "device": r"iphone|pixel|galaxy|samsung|android|macbook|thinkpad|chromebook|ipad",
    "bank": r"barclays|hsbc|lloyds|natwest|santander|starling|halifax|nationwide|first direct|wells fargo|"
            r"bank of america|capital one|n26|monzo|revolut|chase|wise",
    "editor": r"vs ?code|neovim|vim|emacs|intellij|pycharm|sublime|webstorm|xcode|cursor",
    "colour": r"red|green|blue|purple|pink|orange|yellow|black|white|grey|gray|teal|turquoise|lilac|violet|"
              r"maroon|beige|burgundy|magenta|navy|brown",
    "partner": r"single|married|engaged|divorced|separated|widowed|dating",
    "pronouns": r"she/her|he/him|they/them|she/they|he/they|xe/xem|ze/zir",
    "commute": r"bus|train|tube|metro|tram|cycl(?:e|es|ing)|bike|biking|drive|drives|driving|walk|walks|walking",
}


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_PHONE = re.compile(r"(?<![\w-])(?:\+|\b0)?\d[\d ()-]{7,18}\d(?![\w-])")


def shaped(text: str) -> tuple[str, bool, re.Match[str]] | None:
    """The attribute a value's own shape names when no word does ("mum's is 06 98 11 35 02" is a phone
    number, "it's ana.k@proton.me now" an email address): a fallback after the lexicon, never before it, and
    not for a structured record (an invoice's sender address is not the record's attribute)."""
    if text.lstrip().startswith(("{", "[")) or '":' in text:
        return None
    if m := _EMAIL.search(text):
        return "email", False, m
    m = _PHONE.search(text)
    if m and 9 <= sum(c.isdigit() for c in m.group(0)) <= 15 and not re.fullmatch(r"\d{4}-\d\d-\d\d.*", m.group(0)):
        return "phone", False, m
    return None


_SCALAR_KEY = re.compile(r'"\s*:(?!\s*\[)')


def scalar_key(cue: re.Match[str]) -> bool:
    """A record's key holding one value ("member": "C. Duarte", "cat": "Sooty"): that record's one value, however many
    members or cats a person has; a key holding a list ("rx": [...]) keeps the family's several values."""
    return cue.string[cue.start() - 1:cue.start()] == '"' and bool(_SCALAR_KEY.match(cue.string, cue.end()))


_SAME = {"plantbased": "vegan", "centigrade": "celsius", "kilometre": "km", "kilometer": "km", "cycling": "cycle",
         "biking": "cycle", "bike": "cycle", "driving": "drive", "walking": "walk",
         "gangway": "aisle"}


def member(word: str) -> str:
    """One spelling per member of a closed class: "days", "day shift" and "Day" are one, as are "drives" and "driving"."""
    word = re.sub(r"[- ]", "", word.lower().replace(" shift", "")).removesuffix("s").replace("grey", "gray")
    return "omnivore" if word.startswith("eat") else _SAME.get(word, word)    # "eats meat", "eating everything"


_FAMILY_SCAN = CueScanner([cue for _, cue, _ in FAMILIES], re.I, before=r"(?<![\w-])", after=r"(?![\w-])")
"""Each family's cue as ``re.search`` would find it, without ~50 searches a text (see ``cuescan``)."""
MANY = frozenset(name for name, _, many in FAMILIES if many)
"""The families whose attribute holds several values."""


@lru_cache(maxsize=65536)
def family(text: str) -> tuple[str, bool, re.Match[str]] | None:
    """The first attribute family whose cue occurs in ``text`` (lexicon order: specific first). Cached:
    a claim's text is asked again by the chit-chat features, and value words recur across decisions."""
    hit = _FAMILY_SCAN.first(text)
    if hit is None:
        return None
    name, _, many = FAMILIES[hit[0]]
    return name, many, hit[1]
