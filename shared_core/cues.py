"""Cues: general language cues of who is speaking about what, and when (hearsay, a change to come, an injected
instruction, a recap, a confirmation, a stale record, a guess, a condition), one pattern each.

Why their own module: they read the claim's words alone, never an entry, and every policy, the contract and the doubt
model read them through ``grounding.claim_features``; the matching of a claim to an entry (``grounding``) is another
concern. Each pattern is general English, not a phrase of any data set.
"""

from __future__ import annotations

import re

from .cuescan import Prefiltered
from .reliability import CONSIDERING
from .tense import USED_TO_RX

_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
"""The months as the future cue reads them after "next" and "from" ("next september", "from march")."""
_AT_REQUEST = (r"\b(?:as (?:you )?requested|as (?:you )?asked|like you asked|per your (?:request|instructions?)|at your request|"
               r"as instructed)\b")
_MADE = r"\bi(?:'ve| have)? (?:moved|changed|updated|switched|rebooked|rescheduled|swapped|reset|set)\b"
"""``cue_done``'s two halves, in either order: the user's word asked for, and the speaker's change made."""
CUES: dict[str, Prefiltered] = {
    name: Prefiltered(re.compile(rx, re.I)) for name, rx in {
        "cue_hearsay": r"\b(?:says?|said|told (?:me|us)|heard|reckons?|according to|apparently|rumou?r\w*|word is|"
                       r"(?:keeps?|kept|been|is|was|are|were) saying|claims?|supposedly|allegedly|someone|thinks|hinted|"
                       r"dropped a hint)\b",
        "cue_future": r"\b(?:next (?:week|month|year|term|quarter|monday|season|" + _MONTHS + r")|(?<![._])upcoming|starting|"
                      r"from (?:next|monday|" + _MONTHS + r"|\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:" + _MONTHS + r"))|will|going to|"
                      r"gonna|planning|plan to|soon|tomorrow|effective|as of|from the \d+|in q[1-4]|"
                      r"(?:by|at|before) the end of (?:the )?(?:month|week|year|term|quarter)|"
                      r"(?:getting|being) (?:pushed|moved|delayed|postponed|acquired)|"
                      r"(?:going|moving|moves?|switching|switch(?:es)?|changing|changes?|starting|starts?|closing|closes?|leaving|leaves?|"
                      r"joining|joins?|coming|comes|returning|returns?|merging|merges?)\b[^.;]{0,40}\bin (?:(?:jan|feb|"
                      r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(?:the )?(?:spring|summer|autumn|fall|winter)))\b",
        "cue_later": r"\b(?:he|she|they|it|we|you|that)'ll\b|\bin (?:a|one|two|three|four|a couple of|a few|the next|the coming) (?:days?|weeks?|months?|years?)\b|"
                     r"\bin the (?:summer|spring|autumn|fall|winter|new year)\b|"
                     r"\b(?:by|after) (?:christmas|easter|the summer|summer|spring|autumn|winter|the new year)\b|"
                     r"\bend of (?:the )?(?:month|week|year|term)\b|\b(?:coming|going|be) back\b",
        "cue_injection": r"\b(?:ignore (?:all |the |any )?(?:previous|prior|above|earlier)|disregard|"
                         r"ignore (?:your |all |any |the )?(?:[\w-]+ ){0,2}(?:instructions|details|records?|rules|memory)|"
                         r"(?:ai|llm|bot|assistant|agent)s? (?:systems? |models? |tools? )?"
                         r"(?:reading|processing|parsing) th(?:is|ese)|"
                         r"(?:ai|bot|agent|assistant) instructions?|update (?:your |the |its )?memory|"
                         r"override(?!\s*(?:created|removed|deleted|ended|expire[sd]?|until|since|from|active|scheduled)\b"
                         r"|\s*[,)])|"
                         r"system prompt|store (?:this|the following)|forget (?:everything|what)|new instructions?|"
                         r"if you(?:'re| are) an? (?:ai|assistant|bot|llm|language model)|(?:note|message|instructions?) (?:to|for) "
                         r"(?:the |any )?(?:ai|assistants?|bots?|support bots?|llms?|agents?)|remove (?:it|this|that) from (?:the )?"
                         r"(?:user's )?(?:record|memory|profile)|"
                         r"overwrite (?:the |any |your |all )?(?:stored |saved |existing |current |old )?"
                         r"(?:values?|memory|memories|records?|entry|entries|data|profile)|"
                         r"(?:save|store|write|record|update|set) (?:[\w'-]+ ){0,8}(?:in|to|into) (?:your |the |its )?memory|"
                         r"(?:attention|attn|hey|dear|note (?:to|for)|(?:(?<=[\"'\[(])|^)(?:to|for)) "
                         r"(?:the |any |all )?(?:[\w-]+ )?(?:ai|llms?|bots?|assistants?|agents?)(?: systems?| models?| tools?)?"
                         r"(?=\s*[:\],]|\s+\w+ (?:is|are) )|if an? (?:ai|assistant|bot|llm|agent|language model)|in your memory|"
                         r"(?:replace|overwrite|swap) (?:[\w'-]+ ){0,3}(?:stored|saved|remembered)|"
                         r"\b(?:assistant|system|ai|bot)(?: note)?:\s*(?:please\s+)?(?:update|replace|change|set|store|save|"
                         r"remember|forget|ignore|delete|overwrite|swap|treat)|tell no one|do not (?:mention|verify)|"
                         r"no need to (?:check|verify))\b",
        "cue_recap": r"^\s*(?:the )?user(?:'s)?\b|\bas you know\b|\brecap\b|\bto summari[sz]e\b|\bnoted\b",
        "cue_confirm": r"\b(?:still|yep|yup|as usual|(?:as )?per usual|like usual|as normal|same old|same as|"
                       r"confirm(?:ed|s|ing)?|indeed|as before|as (?:always|ever)|"
                       r"^\W*again\b|(?:say|said|says|saying|mentioned|told|repeated|brought (?:it |that )?up|not(?:ed|ing)|"
                       r"flagging)\b[^.;!?]{0,40}\b(?:again|already|before)|"
                       r"as you know|(?:like|as) i (?:said|say)|as (?:i )?mentioned|like always|"
                       r"(?:not|never|nothing's|nothing has) changed|unchanged|no change)\b",
        "cue_stale": r"\b(?:(?<!years )(?<!year )(?<!months )(?<!weeks )(?<!days )(?<!yrs )(?<!-)(?!(?-i:Old\s+[A-Z]))old|"
                     r"outdated|cached?|(?:cached?|fetched|synced|retrieved|snapshot)_(?:at|ts|time)|snapshot|archived?|"
                     r"last year|" + USED_TO_RX + r"|years ago|"
                     r"back in(?! (?:a|an|my|his|her|their|our|its|stock|place|use)\b)(?! the (?!day\b))|"
                     r"previous(?:ly)?|former(?:ly)?|20[01]\d|last (?:edited|updated|modified|synced|checked)|"
                     r"as_of|as of \d|record_updated|late upload|months ago|weeks ago|when (?:we|i) (?:went|were|stayed)|"
                     r"last (?:summer|winter|spring|autumn|term|season)|(?<=\()20\d\d(?=\)))",   # "record (2021):"
        "cue_sender": r"^[^\w{\[]*(?:e-?mail|sms|text|letter|message|dm|voicemail|notification)\s+(?:from|by)\b[^:]{0,80}:|"
                      r"^[^\w{\[]*from:\s|"
                      r"<[\w.+-]+@[\w.-]+>|\bfrom:? [\w.+-]+@[\w.-]+|\bplease (?:confirm|verify|update|send|click)\b|"
                      r"\b(?:claiming|claims|purporting|pretending) to be\b|"
                      r"\b(?:unverified|unknown|unrecogni[sz]ed|spoofed) (?:sender|number|caller|address)|"
                      r"\b(?:sender|number|caller) (?:unverified|unknown|not verified)\b",
        "cue_speculative": r"\b(?:maybe|perhaps|possibly|might|could be|not sure|unsure|i wonder|wondering whether|"
                           r"(?:has|have|had)n'?t decided|havent decided|hasnt decided|(?:nothing|not yet|not) decided|"
                           r"undecided|leaning (?:towards?|toward)|pending[_ ]approval|plan only|"
                           r"not (?:yet )?(?:approved|billed|merged|agreed|signed|finali[sz]ed)|unsigned|proposed(?! to\b)|"
                           r"(?:data )?source(?: and date)? (?:unknown|unclear)|"
                           r"awaiting (?:\w+ )?(?:review|approval|reply|response|confirmation|sign-?off)|"
                           r"(?:talking|talked|talk) about \w+ing|floated|hinted(?: at)?|on the cards|"
                           r"(?:need|needs|have|got|gotta) to (?:check|double[- ]check|confirm|verify|dig (?:it|them) out)|"
                           r"could(?:n'?t| not) (?:quite )?(?:hear|make out|read|tell))\b",
        "cue_may": r"\b(?-i:may)\s+(?:well\s+|soon\s+|also\s+|yet\s+|not\s+|even\s+)?(?-i:[a-z]{3,}|be)\b|"
                   r"\b(?:weighing|mulling)(?: up| over)? (?:a |the )?(?:switch|move|change)\b",
        "cue_intent": r"(?<!no )(?<!not )(?<!n't )\b(?:wants?|wanting|hop(?:e|es|ing)|plan(?:s|ning)?|intend(?:s|ing)?|"
                      r"aim(?:s|ing)?|would like|'d like|keen|looking|likely|supposed)\s+to\s+(?:\w+\s+)?"
                      r"(?:move|relocate|switch|leave|quit|change|join|start|retire|sell|transfer|swap|drop|stop|go back)\b|"
                      r"\b(?:should|could|might|may)\s+(?:well\s+)?(?:be\s+(?:moving|switching|leaving|starting|joining|changing|"
                      r"relocating)|end up)\b",
        "cue_conditional": r"\b(?:(?<!even )(?<!as )if(?! you(?:'re| are)? (?:ever |)(?:plan|planning|look|looking|book|booking|order|ordering|make|making|"
                           r"cook|cooking|ask|asking|wonder|wondering|need|want|get|getting|do|doing)\b)"
                           r"(?! (?:that|it)(?:'s| is)? (?:helps?|matters?|useful|relevant)\b)"
                           r"(?! (?:(?:the |my |your )?\w+ )?(?:ever )?(?:needs?|wants?) (?:it|them|one|this|that|to know)\b|"
                           r" (?:anyone|anybody|someone)(?:'s| is)? (?:asking|wondering)\b| anything (?:happens|goes wrong|comes up)\b)|"
                           r"unless|depending on|assuming|provided|might|may be|could be|thinking (?:of|about)|"
                           + CONSIDERING + r"|tbc|tbd|pending|waiting (?:for|on)|not (?:yet )?(?:tested|confirmed|official)|untested)\b",
        "cue_listing": r"\b(?:booking\.com|expedia|hotels\.com|airbnb|agoda|trivago|(?:booking|travel|hotel|holiday) (?:site|website|app|"
                       r"platform|portal))\b.*\bcheck[- ]?(?:in|out)\b",
        "cue_details": r"\b(?:new|changed|updated|reissued|different)\b[^.;!?]{0,40}\b(?:bank(?:ing)? details|iban|sort code|"
                       r"account (?:number|details)|payment details|bank account|routing (?:number|no)|bsb)\b|"
                       r"\b(?:bank(?:ing)? details|account details|"
                       r"payment details|iban|(?:mobile|phone|membership|account|card) number)\b[^.;!?]{0,30}"
                       r"\b(?:ha(?:ve|s) (?:been )?(?:changed|updated|reissued)|(?:is|are) now)\b",
        "first_person": r"\b(?:i|i'm|im|i've|me|my|we|we're|our|us)\b",
        "cue_done": rf"{_AT_REQUEST}.{{0,80}}{_MADE}|{_MADE}.{{0,80}}{_AT_REQUEST}",
        "cue_official": r"\((?:official|own|their own|its own) (?:site|website|page|account|app)\)|\bofficial (?:site|website)\b|"
                        r"^\W*[\w.-]+\.(?:org|com|gov|io)(?:/[\w/-]*)?\s*[:-]\s|"
                        r"\((?:updated|revised|amended|posted|issued) (?!20[01]\d)[^)]{1,30}\).{0,80}"
                        r"\b(?:moved|now|changes? to|changed to|reschedul\w+)\b",
        "cue_keeper": r"^\W*(?-i:[A-Z])[\w&'’.-]*(?:\s+(?:(?-i:[A-Z])[\w&'’.-]*|sms|app|email|notice|letter)){1,3}"
                      r"\s*[:·|]\s"
                      r".*\byour?\b.*\b(?:(?:has|have)\s+(?:now\s+)?(?:been\s+)?(?:moved|changed|retimed|rescheduled|"
                      r"updated|switched|reassigned)|now\s+(?:departs|leaves|starts|opens|closes|runs|goes\s+off)|moved\s+to|"
                      r"changed\s+(?:to|from))\b",
    }.items()
}
"""General language cues (not phrases of any data set): who is speaking about what, and when.
``cue_speculative`` marks a guess rather than a report ("maybe she lives in Rome"), or a change not yet decided ("leaning
towards", "awaiting approval", a "plan only"); weaker hedges ("I think", "probably") are left to the policy: people use
them on completed changes. ``cue_later`` is read by
the contract only (a rumour of a later change waits): the policy's networks were trained without it, so
``cue_future`` keeps the meaning they learned. ``cue_may`` is the contract's too: "Ezra may move to Northfield" is a guess
like "might", but the networks learned "may" as a weak hedge, which people also put on completed changes. ``cue_intent``
(contract only) is a change wished, planned or expected, not made: "hoping to move to York", "should be moving soon".
``cue_details`` (contract only): word of new bank, payment or account details, the labels' other example ("an unknown
email claiming to be the landlord with new bank details"). ``cue_listing`` (contract only): a booking site's page on a
stay's check-in or check-out, the labels' example of a source neither clearly weaker nor stronger than the place's own.
``cue_done`` (contract only): a change the speaker made at the user's word ("As requested, I moved the booking to
8:30pm"): the owner's change carried out, not hearsay. ``cue_official`` (contract only): a page that speaks for its own
subject ("Bakkerij Brood (own website): we're now also open Mondays", "python.org: Python 3.12.0 is now available"):
read as the keeper's word, as ``cue_keeper`` is. ``cue_keeper`` (contract only): the keeper of a fact telling the user
it changed, under its own name ("British Airways: BA117 on 16 Jul now departs 09:55", "Riverside Surgery: your
appointment has been moved to ..."): a change made, not hearsay about one."""
