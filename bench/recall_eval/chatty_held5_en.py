"""The fifth held-out chatty set's English facts, small talk and names (the form chatty_en.py describes).

Written blind, for measuring only: by someone who had not read the ranking's word tables or its tests, with
subjects, names, places and small talk that appear in none of the tuning sets or the earlier held-out sets.
It was measured blind in the sixth round and tuned on in the seventh (its misses read): no longer held out.
Most facts have a stage told by the other speaker on the same subject without the answer (a distractor that
shares the fact's words), and the questions word things the way a user would ask them rather than the way
the message said them.
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "
NAMES = ("Agnes", "Cosima", "Dorian", "Elspeth", "Florian", "Greer", "Hamish", "Ingrid", "Lucian", "Marisol")

HARBOURS = ("Padstow", "Oban", "Kinsale", "Portree")
HENS = ("Dolly, Peggy and Mavis", "Hettie, Blanche and Gertie", "Marge, Olive and Queenie")
LETTER_TOWNS = ("Carlisle", "Truro", "Dumfries", "Hereford")
TEAMS = ("Net Gains", "the Bin Chickens", "the Wing Attacks")
PARTNERS = ("Callum", "Nadia", "Theo", "Ruaridh")
DARK_SKIES = ("Northumberland", "Galloway", "Exmoor")
TORTOISES = ("Gordon", "Sir Reginald", "Bartholomew")

FACTS = [
    fact(
        "h5-kayak",
        """
        A: I finally did it, [[I bought a secondhand sea kayak off a fisherman in {harbour}]]. It's bright
            orange and weighs about as much as a piano.
        B: Do you even know how to steer one?
        ---
        B: My cousin tried paddleboarding on the reservoir and spent more time in the water than on the board.
        A: That's the traditional way to learn.
        ---
        A: Kayak confession, [[I capsized right next to the ferry terminal and got towed back by a man in a
            dinghy]]. My pride is still floating out there somewhere.
        B: Oh no, were you freezing?
        """,
        [
            "S~: What sort of boat did {A} buy, and who from?",
            "S~: What happened the time {A} flipped over in the water? @1",
            "T: What did {A} tell you about paddling {when2}? @1",
            "I: Does {A} spend time out on the sea?",
        ],
        ("The ferry was cancelled again because of the swell.",),
        harbour=HARBOURS,
    ),
    fact(
        "h5-hens",
        """
        A: We're proper smallholders now, [[we got three hens called {hens}, in a coop my dad knocked
            together]]. They follow me round the garden like toddlers.
        B: Fresh eggs every morning then?
        ---
        B: The people over the road keep ducks and they wake the whole street at five shouting for breakfast.
        A: Ducks have no manners at all.
        ---
        A: Egg news at last, [[the grey hen laid her very first egg and it was pale blue]]. I showed it to
            people at work like a school photo.
        B: Blue! That's magical.
        """,
        [
            "S~: What poultry does {A} keep in the back garden?",
            "S: What colour was the first egg {A}'s birds produced? @1",
            "M: What are {A}'s chickens called and what was unusual about the first egg? @0,1",
            "I: Does {A} have some outdoor space at home?",
        ],
        ("Eggs have gone up again at the corner shop, it's daylight robbery.",),
        hens=HENS,
    ),
    fact(
        "h5-tattoo",
        """
        A: Don't tell my mother, [[I got my first tattoo, a little swallow on my shoulder]]. It hurt way less
            than I expected.
        B: A swallow! Let me see it.
        ---
        B: My brother had his girlfriend's name inked on his arm and they split up a month later.
        A: The oldest mistake in the book.
        ---
        A: So much for secrets, [[Mum spotted the tattoo at the beach and didn't speak to me for an entire
            afternoon]]. Then she asked if I'd take her to get one.
        B: Your mum is a legend.
        """,
        [
            "S~: What body art did {A} have done, and where on the body?",
            "S: How did {A}'s mother react when she found out? @1",
            "I~: Is {A}'s skin completely unmarked?",
            "T: What did {A} say about the ink {when2}? @1",
        ],
        ("There's a new piercing studio where the bank used to be.",),
    ),
    fact(
        "h5-jury",
        """
        A: The brown envelope came, [[I've been called up for jury service at the crown court]]. Two weeks off
            work to sit in a wooden box.
        B: Oh that's interesting, are you allowed to talk about it?
        ---
        B: My uncle was a court usher for years and says the best part was the biscuits in the judges' room.
        A: It's always the biscuits.
        ---
        A: It's finished, [[the trial was about a stolen lorry full of designer handbags and we found him
            guilty]]. I can finally tell you.
        B: Wow, how did that feel?
        """,
        [
            "S~: What civic duty did {A} get summoned for?",
            "S: What was the case {A} had to sit through about? @1",
            "M: Where did {A} serve and what was the verdict? @0,1",
            "I: Did {A} have to take time away from the job for it?",
            "T: What did {A} share about the court case {when2}? @1",
        ],
        ("I watched a whole series about a murder trial in one weekend.",),
    ),
    fact(
        "h5-letters",
        """
        A: Strangest thing, [[we found a tin of wartime love letters under the floorboards in the loft]].
            They're from a sailor called Albert to a girl called Winnie.
        B: That's like the opening of a film.
        ---
        A: Letters update, [[I tracked down Winnie's granddaughter in {letter_town} and posted the whole tin
            to her]]. She rang me in tears.
        B: That's the loveliest thing I've heard all year.
        """,
        [
            "S~: What did {A} discover hidden up in the attic?",
            "S: Who did {A} send the old letters to? @1",
            "M: What did {A} find in the house and who ended up with it? @0,1",
            "I: Does {A} still have the wartime letters? @1",
        ],
        ("Nobody writes proper letters any more, it's all voice notes.",),
        letter_town=LETTER_TOWNS,
    ),
    fact(
        "h5-speaking",
        """
        A: I've signed up for something terrifying, [[I joined a public speaking club that meets above the
            library]], because presentations at work make my hands shake.
        B: Good for you, that takes guts.
        ---
        B: My manager reads her slides word for word with her back to the room, it's painful to watch.
        A: At least she turns up.
        ---
        A: You'll laugh, [[I won the club's humorous speech contest with a talk about my awful sense of
            direction]]. There's a tiny plastic trophy.
        B: Of course you did, you get lost in car parks.
        """,
        [
            "S~: What group did {A} join to get over nerves in front of an audience?",
            "S: What was {A}'s winning talk about? @1",
            "T: What did {A} say about the club {when2}? @1",
            "I: Is {A} growing in confidence? @1",
        ],
        ("I have to give a toast at my aunt's birthday and I'm dreading it.",),
    ),
    fact(
        "h5-netball",
        """
        A: I'm sporty now, [[I joined a Tuesday night netball league with some mums from the school gates]].
            We're called {team}.
        B: Netball! I haven't played since I was fourteen.
        ---
        A: Injury report, [[I sprained my ankle landing badly in the semi-final]] and I've been on crutches
            for ten days.
        B: Ouch, did you at least win?
        """,
        [
            "S~: What team sport has {A} taken up?",
            "S~: How did {A} get hurt during a match? @1",
            "M: What is {A}'s team called and what injury happened? @0,1",
            "I: Was {A} walking normally after the semi-final? @1",
        ],
        ("The leisure centre has put its prices up again.",),
        team=TEAMS,
    ),
    fact(
        "h5-brewing",
        """
        A: New project, [[I'm brewing my own ale in the airing cupboard]]. The whole landing smells like a
            pub.
        B: Is that even safe?
        ---
        B: My father-in-law makes wine out of elderflowers and it tastes like perfume.
        A: Perfume with a kick, I bet.
        ---
        A: Disaster, [[a whole batch of bottles exploded in the night]] and there was beer dripping off the
            towels.
        B: Oh no, what a mess.
        """,
        [
            "S~: What drink has {A} been making at home?",
            "S: What went wrong with {A}'s bottles? @1",
            "T: What happened to {A}'s beer {when2}? @1",
            "I: Does {A} drink alcohol?",
        ],
        ("The pub at the end of our road has started selling its own cider.",),
    ),
    fact(
        "h5-engaged",
        """
        A: I have news, [[{partner} proposed at the top of Snowdon with the ring hidden in a flask of soup]]. I
            said yes with a mouth full of tomato soup.
        B: Stop it! Congratulations!
        ---
        B: My friend's boyfriend proposed on the big screen at a football match and she said no in front of
            thirty thousand people.
        A: That poor man.
        ---
        A: Planning update, [[we've booked a barn near my parents' place for next September]]. They have
            goats that could be ring bearers.
        B: Goats at a wedding is perfect.
        """,
        [
            "S~: How did {A}'s other half pop the question?",
            "S: Where is {A} getting married? @1",
            "M: Who asked {A} to marry them and what venue did they book? @0,1",
            "I: Is {A} single?",
        ],
        ("Everyone I know seems to be getting married this year.",),
        partner=PARTNERS,
    ),
    fact(
        "h5-telescope",
        """
        A: Birthday present to myself, [[I bought a telescope and saw the rings of Saturn from the back
            step]]. I actually gasped out loud.
        B: That's amazing, can you see anything with the street lights?
        ---
        B: My nephew says he wants to be an astronaut, and also a dinosaur.
        A: Both are valid careers.
        ---
        A: Best night ever, [[on the dark-sky trip to {dark_sky} we saw the northern lights]], green curtains
            over the hills.
        B: I'm so jealous, that's on my list.
        """,
        [
            "S~: What planet did {A} spot through the new stargazing kit?",
            "S: What did {A} see on the trip away from the city lights? @1",
            "M: What did {A} buy and what did they see on the trip? @0,1",
            "I: Does {A} like looking at the night sky?",
        ],
        ("It was so cloudy last night you couldn't even see the moon.",),
        dark_sky=DARK_SKIES,
    ),
    fact(
        "h5-mum-retire",
        """
        A: End of an era, [[my mum retired after thirty-eight years as a midwife]]. She reckons she's
            delivered over two thousand babies.
        B: What a career, she must be shattered.
        ---
        B: My dad retired last year and now he reorganises the shed every single week.
        A: Sheds are where dads go to think.
        ---
        A: Mum's new life, [[she took up watercolours and a café is hanging her paintings]], twenty quid each.
        B: Look at her go!
        """,
        [
            "S~: What job did {A}'s mother leave after nearly four decades?",
            "S: What hobby has {A}'s mum picked up since she stopped working? @1",
            "T: What did {A} say about the mother {when2}? @1",
            "I: Does {A}'s mother still go out to work?",
        ],
        ("My mum has discovered voice messages and sends me five a day.",),
    ),
    fact(
        "h5-balloon",
        """
        A: I never win anything, but [[I won a hot-air balloon ride in the school raffle]]! Apparently I was
            the only one daft enough to buy twenty tickets.
        B: That's brilliant, are you okay with heights?
        ---
        A: The flight finally happened, [[we came down in a field of cows and the farmer made us all tea]]. The
            cows were not impressed.
        B: Best landing story ever.
        """,
        [
            "S~: What prize did {A} win in the draw?",
            "S: Where did {A}'s balloon land? @1",
            "I: Did {A} buy more than one raffle ticket?",
            "T: What did {A} tell you about the flight {when1}? @1",
        ],
        ("The school fair needs volunteers for the tombola again.",),
    ),
    fact(
        "h5-tortoise",
        """
        A: We've inherited a pet, [[our old neighbour left us her tortoise, {tortoise}, who is sixty years
            old]]. He's older than my parents.
        B: A tortoise! What do they even eat?
        ---
        B: My sister's hamster escaped and lived inside the sofa for a week.
        A: Sofa hamster is a good band name.
        ---
        A: Panic over, [[the tortoise got out under the fence and was found two streets away in a flower
            bed]], eating somebody's lettuces.
        B: How fast was he going?!
        """,
        [
            "S~: What reptile did {A} take in from a neighbour?",
            "S~: Where did {A}'s pet turn up after wandering off? @1",
            "M: How old is {A}'s tortoise and where was it found when it went missing? @0,1",
            "I: Is {A}'s tortoise young?",
        ],
        ("Our lawn is mostly moss and clover this year.",),
        tortoise=TORTOISES,
    ),
    fact(
        "h5-exam",
        """
        A: Wish me luck, [[I'm studying for the last accountancy exam, the one that makes me chartered]]. I
            have flashcards stuck on the bathroom mirror.
        B: You'll smash it.
        ---
        B: My brother sat his law exams this summer and says he dreams about contracts now.
        A: That sounds like a nightmare, literally.
        ---
        A: I passed! [[I got seventy-one percent on the final paper]] and I'm officially chartered.
        B: Drinks are on you.
        """,
        [
            "S~: What professional qualification is {A} working towards?",
            "S: What mark did {A} get? @1",
            "T: What did {A} tell you about the exam {when2}? @1",
            "I: Is {A} good with numbers?",
        ],
        ("I still do my tax return on the last possible day every year.",),
    ),
    fact(
        "h5-birds",
        """
        A: Don't laugh, [[I've got into birdwatching since a kingfisher landed on the railing by the canal]].
            I bought proper binoculars.
        B: You're turning into my grandad.
        ---
        B: A pigeon walked into our office yesterday and nobody could catch it.
        A: It just wanted a job.
        ---
        A: Birding news, [[I saw a hoopoe at the nature reserve]], which is incredibly rare here, and a man
            with a huge camera nearly cried.
        B: I had to look up what a hoopoe is.
        """,
        [
            "S~: Which bird got {A} into this new pastime?",
            "S: What rare bird did {A} spot? @1",
            "M: What started {A}'s birding and what rare one turned up? @0,1",
            "I: Does {A} own binoculars?",
        ],
        ("The sparrows have started nesting in our gutter.",),
    ),
    fact(
        "h5-foraging",
        """
        A: I went on a course, [[a mushroom foraging walk in the woods with a guide]], and came home with a
            basket of chanterelles.
        B: Aren't you scared of picking a poisonous one?
        ---
        A: You were right to worry, [[I ate a mushroom I picked on my own and was sick all night]]. The guide
            gave me a proper telling-off.
        B: Please stick to the supermarket.
        """,
        [
            "S~: What did {A} go gathering on the guided woodland outing?",
            "S~: Why was {A} unwell all night? @1",
            "I: Would {A} trust their own picking again after what happened? @1",
            "T: What happened after {A}'s foraging {when1}? @1",
        ],
        ("The woods behind the estate are full of dog walkers on Sundays.",),
    ),
    fact(
        "h5-kitchen",
        """
        A: We're doing the kitchen, [[knocking through the wall to make one big kitchen-diner]]. We're washing
            up in the bath for a month.
        B: Washing up in the bath, glamorous.
        ---
        B: My friend's bathroom refit took a year because the plumber kept going on holiday.
        A: Builders are a mystery.
        ---
        A: Nightmare, [[the builder vanished with our four thousand pound deposit]] and his phone is dead.
        B: That's awful, have you gone to the police?
        """,
        [
            "S~: What building work was {A} having done at home?",
            "S: How much money did the builder run off with? @1",
            "M: What were {A}'s renovation plans and what went wrong? @0,1",
            "I: Has {A}'s renovation gone smoothly? @1",
        ],
        ("Someone on our street has had a skip outside for six months.",),
    ),
]

GREETINGS = (
    ("{B}! Are you free to natter?", "For you, {A}, always. Kettle's on."),
    ("Afternoon {B}, what's the damage this week?", "Minimal, {A}, so far. Yours?"),
    ("{B}, I need to tell someone something.", "Go on then, {A}, spill."),
    ("Knock knock, {B}.", "Who's there, {A}? Ha, hi."),
)
CLOSINGS = (
    ("Dinner's burning, gotta dash {B}!", "Save the dinner, {A}! Bye."),
    ("Right, early start tomorrow. Night {B}.", "Sleep tight, {A}."),
    ("Lovely catching up {B}, same time next week?", "It's a date, {A}. Ta-ra."),
)
TALK = (
    ("Did you fix the wobbly table in the end?", "I folded a beer mat under the leg, job done."),
    ("How's the allergy season treating you?", "Sneezing like a cartoon character every morning."),
    ("Any luck with the car park at the hospital?", "Drove round four times and paid eleven pounds."),
    ("Are you still getting those spam calls?", "Three a day, all about an accident I never had."),
    ("Did your mum like the scarf?", "She wore it once and then gave it to the dog."),
    ("What's the new boss like?", "Lots of emails with the word synergy in them."),
    ("Have you been sleeping with the window open?", "Until the foxes started screaming at two."),
    ("Did the washing dry?", "It's been on the line for three days and it's wetter now."),
    ("Watched anything good lately?", "A baking show where everyone cried over a sponge."),
    ("How's the commute now the bridge is shut?", "An extra forty minutes and a lot of swearing."),
)
REACTIONS = ("Ha, amazing.", "Oh dear.", "Get away.", "Aww.", "Crikey.", "Classic you.", "Oh, lush.")
SENTENCES = (
    "Apologies for the radio silence, work has been bonkers.",
    "The bin men skipped our road again, so that's nice.",
    "I've eaten nothing but crumpets since Monday.",
    "The boiler man is coming between eight and six, helpful.",
    "My hands are freezing, the office heating is broken.",
    "I've started talking to my houseplants, don't judge.",
    "There's a new bakery by the station and it's dangerous.",
    "I keep losing my bus pass somewhere between the door and the stop.",
    "The kids next door have a trampoline and no off switch.",
    "I walked into the wrong house at a party once, still not over it.",
    "My phone keeps autocorrecting my name to Eggs.",
    "Anyway, enough about me for one evening.",
    "What's new in your world?",
    "We really need to book that walk we keep talking about.",
    "The clocks changing always ruins me for a week.",
    "I've had a headache since lunch, probably too much tea.",
)
