"""Word classes that decide whether a reading is sound: closed classes (listed in full: they are
finite, and a word of one is never a name, an adjective or an object) and the meaning classes of
open-class words whose logic is not "a property of each thing" (privative, subsective,
kind-level, reciprocal, temporal), which the grammar refuses rather than misstate.

The lexicon for parts of speech and inflection is `lemminflect` (lexicon.py): its data ships in
its wheel, it knows ~100k English words with every part of speech they can take, and it has rules
for invented words. Neither it nor any wheel-shipped lexicon marks the meaning classes above
(WordNet's adjective classes need a download, and do not mark privativity), so those are listed
here, by hand, from the literature's standard examples (Partee's privative/subsective adjectives,
Carlson's kind-level predicates, the collective predicates of Link and Winter). A word in none of
these lists keeps its ordinary reading; a word the lists do name is refused in the positions
where its class changes the meaning, never guessed.
"""

from __future__ import annotations

_NUMERALS = """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
thousand million billion dozen dozens hundreds thousands millions half twice thrice""".split()

# Determiners and quantity words: a sentence holding one quantifies in a way the fragment
# (all / every / no / a / the) does not, so it is outside the fragment wherever it stands.
QUANTITY = frozenset(_NUMERALS + """several certain numerous countless few fewer many more most
some any-one additional particular various multiple both enough plenty couple numberless
innumerable sundry myriad majority minority""".split())

# Words that open a subordinate clause: never a name ("Unless Bob is tall" is not `unless_bob`).
SUBORDINATORS = frozenset("""unless until till whereas lest once whenever wherever whether
although though because since while whilst when where provided providing given granted
supposing assuming""".split())

# Imperatives that open a hypothetical ("Suppose Bob is tall."): refused at the start of a sentence.
IMPERATIVES = frozenset("suppose assume imagine say pretend consider let presume".split())

# have / has / had + participle is the perfect tense, not possession.
HAVE = frozenset({"has", "have", "had"})

# Privative and modal adjectives: a former president is not a president.
PRIVATIVE = frozenset("""former fake alleged would-be potential suspected possible counterfeit
imaginary future mere false pretend so-called supposed ex putative apparent presumed probable
fictional fictitious artificial mock pseudo erstwhile onetime one-time past prospective
hypothetical virtual nominal purported reputed self-styled wannabe""".split())

# Subsective adjectives: a good cook is good *as a cook*, a small elephant is small for one. Before
# a noun they are refused; with "thing"/"person" (no comparison class) and after a copula they
# stay ordinary properties.
SUBSECTIVE = frozenset("""good bad better worse best worst small big large little tall short heavy
light old young new great poor skilled skillful skilful excellent terrible awful beautiful ugly
huge tiny fast slow strong weak typical average able capable competent expert talented
experienced successful famous notorious real true genuine perfect wonderful lousy decent fine
high low long wide narrow thick thin deep shallow cheap expensive rich mature giant enormous
massive mini miniature minor major senior junior veteran novice amateur professional
efficient inefficient careful careless hard quick rapid""".split())

# Kind-level predicates: "Pandas are rare" says something of the kind, not of each panda.
KIND_LEVEL = frozenset("""rare common extinct numerous widespread abundant scarce plentiful
endangered ubiquitous populous prevalent frequent infrequent uncommon commonplace native
invasive diverse dominant countless innumerable""".split())

# Reciprocal and collective predicates: "Bob and Alice are different" is not "Bob is different and
# Alice is different". Nouns as singular lemmas, verbs as lemmas.
RECIPROCAL = frozenset("""different similar equal alike identical same distinct unequal
equivalent comparable separate together apart related unrelated married engaged divorced
acquainted compatible incompatible parallel adjacent opposite friend sibling cousin neighbor
neighbour partner twin couple pair colleague classmate roommate teammate rival enemy ally
spouse meet fight collide disagree agree marry differ kiss embrace hug quarrel argue compete
gather unite merge combine intersect coincide correspond match resemble date cooperate
collaborate""".split())

# Prepositions of three or more places: "between Al and Sue" is one relation of three things.
MANY_PLACE = frozenset({"between", "among", "amongst"})

# Nouns of time: as the object of a verb they say when or how long, not what ("Bob runs Mondays",
# "the whole night").
TEMPORAL = frozenset("""monday tuesday wednesday thursday friday saturday sunday weekend weekday
night day week month year hour minute second morning evening afternoon noon midnight dawn dusk
tonight today tomorrow yesterday season spring summer autumn fall winter decade century moment
while time lifetime daytime nighttime""".split())

# Reciprocal pronouns ("each other", "one another") and partitive words that have no
# individual reading.
RECIPROCAL_PRONOUNS = frozenset({"other", "another"})

# Indefinite pronouns the fragment does not read (it reads something / everything / nothing):
# never a name ("Is anything big?" is not `big(anything)`).
INDEFINITE_PRONOUNS = frozenset("anything anyone anybody anywhere somewhere everywhere nowhere whatever whoever".split())


def closed_class_problem(low: str, at: int) -> str | None:
    """Why the word `low` (lower case) at position `at` of a sentence puts it outside the fragment,
    or None."""
    if low in QUANTITY:
        return f"'{low}' is a quantity word (only all, every, no, a and the are read)"
    if low in SUBORDINATORS:
        return f"'{low}' opens a subordinate clause"
    if at == 0 and low in IMPERATIVES:
        return f"'{low}' opens a hypothetical"
    if low in MANY_PLACE:
        return f"'{low}' relates three or more things"
    if low in RECIPROCAL_PRONOUNS:
        return f"'{low}' is reciprocal"
    if low in INDEFINITE_PRONOUNS:
        return f"'{low}' is an indefinite pronoun, not a name"
    return None

# Linking verbs: "Bob feels sick" says what Bob is, not that he feels a thing called "sick".
LINKING = frozenset("""feel look seem appear become get grow turn stay remain sound smell taste
go fall keep prove end""".split())

# Verbs of object and complement: in "Bob calls Alice Sue" the object is Alice, and Sue is what he
# calls her, not a name "Alice Sue".
OBJECT_COMPLEMENT = frozenset("""call name dub elect appoint crown make consider title nickname
christen label term declare deem think find judge proclaim pronounce rename vote""".split())

# Verbs of saying and believing: with no object of their own ("Al is tall, Bob thinks.") they
# report the clause beside them, which is then someone's claim, not a fact.
REPORTS = frozenset("""think say believe claim reckon suppose guess hope fear suspect doubt know feel
imagine assume expect argue insist admit deny add reply note explain suggest agree maintain report
allege state declare announce mention remark answer hear read""".split())

# Anaphoric definites: "the former", "the latter", "the first" point back into the text (to
# something said before, not a thing called "former"): refused as the head of a description.
ANAPHORIC = frozenset("""former latter first second third fourth fifth last next previous above
aforementioned following preceding same other rest remainder one ones""".split())

# Relational adjectives: "a different man" is different from someone; no property of each thing.
RELATIONAL = frozenset("""different similar equal separate distinct identical opposite same alike
unrelated related comparable equivalent unequal analogous dissimilar corresponding
respective""".split())

# Nouns of words and language: "Run is a verb." says something of the word, not of a thing "run".
METALINGUISTIC = frozenset("""verb noun adjective adverb pronoun preposition conjunction article
determiner word name letter syllable sentence phrase clause synonym antonym plural singular
suffix prefix vowel consonant spelling term abbreviation acronym homonym idiom""".split())

# Verbs of two objects: in "John gives Bill Mary." Bill is whom, Mary what: never a name "Bill Mary".
DITRANSITIVE = frozenset("""give hand send tell show offer bring pass lend teach sell buy pay owe
promise throw write read mail award grant deny feed serve leave bake cook fetch get loan assign
allow cost ask""".split())

# Verbs that want an object: "Al Bob likes." has its object first (Bob likes Al), never a name
# "Al Bob" that likes.
TRANSITIVE = frozenset("""like love hate see know want need fear chase visit admire respect trust
help kill hit own find make take bring hold carry use prefer enjoy dislike miss call greet marry
follow watch touch kick push pull catch buy sell""".split())
