"""The eighth held-out chatty set's English facts, small talk and names (the form chatty_en.py describes).

Written blind, for measuring only: by someone who had not read the ranking's code, word tables, concepts or
tests, and who read the earlier held-out sets only to keep clear of their subjects, names and phrasings. Like
the sixth and seventh sets: long turns over two to four stages, facts that change later (the question asks
what holds now, or what happened at one time), a stage told by the other speaker on the same subject without
the answer (a distractor), echoes that name the same people and places, and questions in everyday words that
say the thing differently from how it was told (workmates for the lads from work, the ear specialist for the
audiologist, a miniature tree for a bonsai), some of them only answerable by putting two things together.
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "
NAMES = (
    "Ottoline",
    "Crispin",
    "Wilhelmina",
    "Lysander",
    "Rosalind",
    "Ignatius",
    "Cressida",
    "Alaric",
    "Fenella",
    "Ambrose",
)

CELLO_TEACHERS = ("Mr Pavlovic", "Mrs Lindqvist", "old Mr Adeyemi")
ORCHESTRAS = ("Northgate Sinfonia", "Harbourside Community Orchestra", "Vale of Ashby Philharmonic")
HIRES = ("Zainab", "Marisa", "Katya")
HIRE_CITIES = ("Sheffield", "Swindon", "Milton Keynes")
DAD_TOWNS = ("Malvern", "Ludlow", "Bridport")
CARE_HOMES = ("Rowan House", "the Beeches", "Larkfield Lodge")
QUEBEC_CITIES = ("Montreal", "Quebec City", "Sherbrooke")
MARKETS = ("Frome", "Totnes", "Hexham")
SAUCES = ("Dragon's Breath", "Red Hen Heat", "Grandma's Revenge")
LIFEBOATS = ("Porthleven", "Cromer", "Wells-next-the-Sea")
BINDERIES = ("the Old Print Works", "the museum's craft room", "a paper shop in Hay")
GOATS_ONE = ("Bramble", "Clementine", "Wiggins")
GOATS_TWO = ("Nutmeg", "Sorrel", "Dumpling")
WARDS = ("Abbey", "Castle Hill", "Mill Green")
TITLES = ("The Lamp Room", "Low Water", "The Keeper's Daughter")
PUBLISHER_CITIES = ("Bristol", "Norwich", "Leeds")
FOSTER_KIDS = ("Kai", "Tyler", "Jayden")
CHARITIES = ("the hospice that looked after my aunt", "a children's cancer charity", "the air ambulance")
NURSERIES = ("Kent", "the Cotswolds", "a garden centre outside Chester")
CALL_SIGNS = ("M7KTE", "2E0BRN", "M0WLF")

FACTS = [
    fact(
        "h8-cello",
        """
        A: I've done a grown-up thing for once, [[I've started cello lessons with a retired orchestra player called
            {teacher} who lives above the launderette]]. Forty minutes every Thursday, and so far I can play one
            open string without it sounding like a door hinge.
        B: The cello! Did you have to buy one?
        A: I'm renting a half-decent one from the music shop for twenty quid a month. It has its own seat belt in
            the car.
        ---
        B: My nephew plays the double bass in his school jazz band and the thing is taller than he is, he and his
            mate have to carry it to the bus between them like a coffin.
        A: At least a cello fits in a small hatchback, just about, if nobody else comes.
        ---
        A: Massive moment, [[I passed my audition for the {orchestra}, back desk of the cellos, and the first
            concert is in the spring]]. I played a bit of Elgar and only wobbled twice.
        B: You're in an actual orchestra now!
        A: Back desk, hiding behind the double basses, but yes. Rehearsals are Monday nights in a school hall that
            smells of plimsolls.
        """,
        [
            "S~: Who is teaching {A} to play the big string instrument?",
            "S~: What instrument has {A} been having lessons on?",
            "S~: Which amateur ensemble did {A} get into? @1",
            "M: How has {A}'s cello playing gone from the first lessons to now? @0,1",
            "T: What did {A} tell you {when2} about the music? @1",
            "I~: Does {A} play concerts with other musicians these days? @1",
        ],
        ("{teacher} sent a video of a cat strolling across a cello, which I think was a hint about practising.",),
        teacher=CELLO_TEACHERS,
        orchestra=ORCHESTRAS,
    ),
    fact(
        "h8-hiring",
        """
        A: Work is eating me alive, [[we're finally hiring our first engineer at the startup, and I've done
            fourteen interviews in a fortnight]]. Half of them asked whether we have a ping-pong table. We have a
            kettle and a plant.
        B: How many of you are there now?
        A: Three founders and a spaniel who comes in on Tuesdays.
        ---
        B: Our HR lot use a personality quiz to pick new starters, and apparently I came out as "a supportive owl",
            which they put on my staff profile.
        A: Very on brand, to be fair to the quiz.
        ---
        A: Done, signed, [[we've hired {hire}, who used to build payment systems at a bank, and she starts on the
            first of the month]]. She negotiated harder than any investor we've ever met.
        B: That's a good sign, honestly. Is she local?
        A: [[She lives in {hire_city}, so she'll work from home and come in one day a week on the train]].
        ---
        A: Plot twist, [[{hire} has been so good we've made her chief technology officer and given her a slice
            of the company]]. She rebuilt the whole app in four months while the rest of us argued about logos.
        B: From first hire to the boss of tech, brilliant.
        A: She still makes the worst tea in the building.
        """,
        [
            "S~: What role was {A}'s little company trying to fill?",
            "S~: Who did {A}'s firm take on in the end? @1",
            "S: Where does {hire} live? @2",
            "S~: What's {hire}'s job title now? @3",
            "M: How did {hire} go from new recruit to running the technical side? @1,3",
            "T: What news did {A} give you {when2} about the recruiting? @1",
            "T: What changed at {A}'s company {when3}? @3",
            "I~: Does {hire} travel into the office every day? @2",
        ],
        ("The spaniel has started sitting under {hire}'s desk because she drops the most crumbs.",),
        hire=HIRES,
        hire_city=HIRE_CITIES,
    ),
    fact(
        "h8-dad-care",
        """
        A: It's been a rough few months, [[Dad's been diagnosed with Alzheimer's, and I'm driving over to {town}
            three evenings a week to do his meals and his pills]]. He called me by my mum's name on Sunday and then
            laughed about it, which was worse somehow.
        B: Oh, I'm so sorry. How are you holding up?
        A: Tired. I've got a pill organiser the size of a fishing tackle box and a spreadsheet with colours.
        ---
        B: My neighbour looks after her mum, who's ninety-four and still does the crossword in pen, and she says
            the hardest part isn't the caring, it's the forms.
        A: She's right about the forms. I have forms about forms.
        ---
        A: We made the call, [[Dad moved into {home} care home last week, ten minutes from my house]]. He's got a
            room looking out on the bird feeders and he's already flirting with the tea lady.
        B: That must have been such a hard decision.
        A: The hardest. But I get to be his kid again instead of his nurse.
        """,
        [
            "S~: What illness was {A}'s father found to have?",
            "S~: How often was {A} going round to look after their dad at first?",
            "S~: Where is {A}'s dad living now? @1",
            "M: How has the way {A}'s father is looked after changed since the diagnosis? @0,1",
            "T: What did {A} decide {when2} about their dad? @1",
            "I~: Is {A} still cooking their father's dinners several nights a week? @1",
        ],
        ("The chemist in {town} knows me by name now, and so does the traffic warden.",),
        town=DAD_TOWNS,
        home=CARE_HOMES,
    ),
    fact(
        "h8-move-abroad",
        """
        A: Huge news, [[we're moving to {city} in Canada because my wife's been offered a research post at the
            university]]. We go in August and I keep googling "how cold is minus thirty really".
        B: Canada! What will you do about your job?
        A: [[My company's letting me keep my job and work remotely]], I just have to start at six in the morning
            to line up with London.
        ---
        B: My cousin emigrated to Australia ten years ago and she still gets her mum to post her proper teabags
            and Marmite every few months.
        A: Noted. I'm packing forty boxes of tea.
        ---
        A: We've arrived, sort of, [[our shipping container is stuck in customs, so we've been sleeping on an air
            mattress for three weeks]]. The flat echoes. The kids think it's camping.
        B: Three weeks! Is there an end in sight?
        A: They say next week. They said that last week as well.
        ---
        A: Canada update, [[I've signed up for French classes at the community centre, because nobody at the
            bakery understands my accent]]. Two evenings a week, and I'm the oldest in the room by twenty years.
        B: Bonne chance!
        A: I understood that. Progress.
        """,
        [
            "S~: Why is {A}'s family emigrating?",
            "S: Which city is {A} moving to?",
            "S~: What went wrong with {A}'s belongings after the move? @2",
            "S~: What language is {A} studying now? @3",
            "M: What has happened to {A} since relocating to {city}? @2,3",
            "T: What problem did {A} tell you about {when2}? @2",
            "I~: Will {A} have to find a new employer over there? @1",
        ],
        ("Someone told me people in {city} plug their cars into the wall overnight in winter, which can't be true.",),
        city=QUEBEC_CITIES,
    ),
    fact(
        "h8-hot-sauce",
        """
        A: My kitchen smells like a volcano, [[I've started making my own chilli sauce and selling it at the
            Saturday farmers' market in {market}]]. [[It's called {brand}]] and the labels are my daughter's
            drawings.
        B: Is it very hot?
        A: Three strengths. The hottest one made a grown man cry and then buy two bottles.
        ---
        B: My brother-in-law grows chillies in his greenhouse and eats them raw to show off, and then has to lie
            down on the patio for an hour.
        A: That's not eating, that's a dare.
        ---
        A: Sauce news, [[a chain of delis has ordered five hundred bottles, so I've rented a proper commercial
            kitchen]]. I had to do a food hygiene course and now I own a hairnet.
        B: Five hundred! That's a business now.
        A: My accountant says I have to stop calling it a hobby.
        """,
        [
            "S~: What has {A} been cooking up to sell?",
            "S: What is {A}'s sauce called? @1",
            "S~: Where does {A} sell the hot stuff at weekends?",
            "S~: How big was the order {A} got from the shops? @2",
            "M: How did {A}'s chilli sauce go from a market table to a bigger business? @0,2",
            "T: What did {A} tell you {when2} about the sauce? @2",
            "I~: Is {A} still making the sauce at home? @2",
        ],
        ("The {market} market has a man selling goats' milk soap who shouts like a town crier.",),
        market=MARKETS,
        brand=SAUCES,
    ),
    fact(
        "h8-lifeboat",
        """
        A: I've signed up for something a bit mad, [[I'm volunteering as crew at the {station} lifeboat station,
            and I carry a pager day and night now]]. Training is Tuesday evenings, lots of knots and being thrown
            into the harbour in a drysuit.
        B: That's properly brave. Does your boss mind if it goes off at work?
        A: He says I can go, as long as I don't run out mid-presentation. Which I absolutely would.
        ---
        B: We watched the lifeboat launch on holiday, it came down the slipway like a rollercoaster and every kid on
            the pier screamed.
        A: I'm told the slipway is the fun bit.
        ---
        A: My first real shout, [[the pager went at three in the morning and we towed a fishing boat with a dead
            engine back in through a gale]]. I was sick over the side twice and nobody has mentioned it, which is
            love.
        B: In a gale! Were the fishermen all right?
        A: Soaked and grateful. They sent a crate of mackerel up to the station.
        """,
        [
            "S~: What has {A} volunteered for down by the sea?",
            "S~: What gadget does {A} have to keep on them all the time now?",
            "S~: What was {A}'s first rescue like? @1",
            "M: What did {A} sign up for and how did the first call-out go? @0,1",
            "T: What happened to {A} {when2}? @1",
            "I~: Did {A} get seasick on that night-time rescue? @1",
        ],
        ("The shop at the {station} station sells fudge, and the fudge is far better than it needs to be.",),
        station=LIFEBOATS,
    ),
    fact(
        "h8-bookbinding",
        """
        A: New obsession, [[I did a weekend bookbinding workshop at {venue} and now I'm hand-stitching notebooks at
            the kitchen table]]. The whole house smells of glue and the cat has a waxed thread addiction.
        B: Do you use leather covers?
        A: Old maps and wallpaper samples so far. Leather is beyond my skills and my budget.
        ---
        B: A woman at my work collects antique books and keeps them in a glass cabinet with a humidity meter, she
            won't let anyone breathe near them.
        A: I'd be banned from her house in seconds.
        ---
        A: A proud one, [[I've been asked to rebind the parish registers for the church, they're two hundred years
            old]]. I practised on a charity-shop cookbook first, eleven times.
        B: That's a real responsibility.
        A: I do it in white cotton gloves and I hardly breathe.
        """,
        [
            "S~: What craft is {A} doing at the kitchen table?",
            "S: Where did {A} learn to bind books?",
            "S~: What old records has {A} been trusted to repair? @1",
            "M: How did {A}'s bookbinding go from a weekend course to a serious job? @0,1",
            "T: What project did {A} mention {when2}? @1",
            "I~: Would {A} know how to mend a battered old family Bible? @1",
        ],
        ("The paper shop by the bridge sells marbled sheets that cost more than a meal out.",),
        venue=BINDERIES,
    ),
    fact(
        "h8-goats",
        """
        A: We've gone a bit self-sufficient, [[we've got two pygmy goats called {goat1} and {goat2} in the back
            paddock]]. They've eaten half the washing line and one of my gardening gloves.
        B: Goats! Do they escape?
        A: Constantly. The fence is more of a suggestion to them.
        ---
        B: The petting farm near us has a goat that headbutts anyone in a yellow coat, and nobody has ever worked
            out why.
        A: I'm never wearing yellow again, just in case.
        ---
        A: Goat drama, [[{goat1} broke into the feed shed and ate so much she got bloat, and the vet had to come
            out at midnight]]. She's fine now, but there's a padlock on the shed.
        B: Oh no, poor thing. Was it expensive?
        A: The call-out fee was more than the goat.
        """,
        [
            "S~: What animals does {A} keep out the back?",
            "S: What are {A}'s goats called?",
            "S~: Why did {A} need an emergency animal doctor in the night? @1",
            "M: What animals did {A} get and what happened to one of them later? @0,1",
            "T: What went wrong with {goat1} {when2}? @1",
            "I~: Can {goat1} still get at the feed? @1",
        ],
        ("{goat2} has learned to open the garden gate with her nose, which is frankly alarming.",),
        goat1=GOATS_ONE,
        goat2=GOATS_TWO,
    ),
    fact(
        "h8-hearing",
        """
        A: I've been in denial for ages, but [[the audiologist says I've lost a third of the hearing in my left ear,
            probably from twenty years of playing drums]]. I've been asking everyone to repeat themselves and
            blaming them for mumbling.
        B: That explains why you always sit on the right at dinner.
        A: I didn't even know I did that.
        ---
        B: My granddad had hearing aids the size of walnuts that whistled every time anyone hugged him.
        A: That's exactly what I was scared of, the whistling.
        ---
        A: News from the land of sound, [[I've been fitted with tiny hearing aids that pair with my phone, so calls
            go straight into my ears]]. Birds are so loud. Who knew birds were this loud.
        B: Can people see them?
        A: Nobody's noticed so far. My partner says I've stopped shouting.
        """,
        [
            "S~: What did the ear specialist find out about {A}?",
            "S~: What does {A} think damaged their ear?",
            "S~: What has {A} been given to help them hear? @1",
            "M: What's happened with {A}'s hearing since the test? @0,1",
            "T: What did {A} find out {when0}?",
            "I~: Can {A} take a phone call without holding the phone to their head? @1",
        ],
        ("The hearing clinic plays the same panpipe album on a loop in the waiting room.",),
    ),
    fact(
        "h8-council",
        """
        A: Don't laugh, [[I'm standing as an independent for the town council in the {ward} ward, mostly because
            they want to shut the library]]. I lost my temper at a public meeting and somebody handed me a form.
        B: You'd be brilliant. Are you out leafleting?
        A: Nine hundred leaflets so far, and two letterboxes have bitten me.
        ---
        B: My uncle was on the parish council for twenty years and the only thing anyone remembers is the great
            row about where to put a bench.
        A: There's always a bench row. I'm ready for mine.
        ---
        A: The count finished at two in the morning, [[I won by thirty-one votes after a recount]]. I had to make a
            speech and I thanked my cat.
        B: Councillor! What's the first job?
        A: [[Saving the library, and the first vote on it is next month]].
        ---
        A: Library news, [[the council voted to keep the library open, with volunteers running it on
            Saturdays]]. I've cried in the town hall toilets twice today, happy crying.
        B: That's down to you, you know.
        A: And the four hundred people who signed the petition.
        """,
        [
            "S~: What election did {A} put their name forward for?",
            "S~: Why did {A} decide to run for office?",
            "S~: How close was {A}'s win? @1",
            "S~: What did {A} want to sort out first once elected? @2",
            "M: How did {A}'s fight for the library turn out, from the election to the vote? @1,3",
            "T: What news did {A} share {when2} about the election? @1",
            "T: What happened with the library {when3}? @3",
            "I~: Is the town's library still going to close? @3",
        ],
        ("The {ward} ward has a pothole on the high street that people have started planting flowers in.",),
        ward=WARDS,
    ),
    fact(
        "h8-novel",
        """
        A: Confession, [[I've been writing a crime novel at five every morning before work, and I've just finished
            the first draft]]. A hundred thousand words about a body found in a lighthouse.
        B: You kept that quiet! What's it called?
        A: [[It's called {title}]], for now anyway. My husband wanted something with "blood" in it.
        ---
        B: A girl in my book club self-published a romance and her mum bought forty copies to hand out at the
            hairdresser's.
        A: That's exactly what mums are for.
        ---
        A: Book news, bad, [[I've had thirty-two rejections from literary agents]]. One of them said the murderer
            was obvious from page four.
        B: Ouch. You're not giving up, are you?
        A: No. I've moved the murderer.
        ---
        A: I'm shaking, [[a small independent publisher in {city} has offered me a contract, and the book comes
            out next autumn]]. The advance would buy a nice sofa, a small one.
        B: You're going to be a published author!
        A: I keep saying it out loud in the car.
        """,
        [
            "S~: What sort of book has {A} been writing?",
            "S: What is the title of {A}'s novel? @1",
            "S~: How did the literary agents react to {A}'s manuscript? @2",
            "S~: Who is going to bring out {A}'s book? @3",
            "M: What happened to {A}'s novel between the rejections and getting a deal? @2,3",
            "T: What did {A} tell you {when0} about the writing?",
            "T: What good news did {A} share {when3}? @3",
            "I~: Will people be able to buy {A}'s book in shops? @3",
        ],
        ("The lighthouse in the book is based on one we stayed near, with a café that only sells scones.",),
        title=TITLES,
        city=PUBLISHER_CITIES,
    ),
    fact(
        "h8-motorbike",
        """
        A: I've bought a wreck, [[a 1974 Triumph motorbike from a barn sale for three hundred quid, and I'm
            restoring it in the garage]]. It's mostly rust holding hands with other rust.
        B: Do you know anything about engines?
        A: I know where the videos are. That's basically an apprenticeship.
        ---
        B: My dad had a motorbike before I was born and Mum made him sell it, and he still looks sad whenever one
            goes past.
        A: That's every dad in the country, I think.
        ---
        A: Bike update, [[it started first kick on Sunday, after eighteen months of work]]. The whole street came
            out because of the noise.
        B: Eighteen months! Have you ridden it?
        A: [[Only round the block, I need a full motorbike licence before I can take it on main roads]], so I'm
            booked on a course.
        """,
        [
            "S~: What vintage vehicle is {A} doing up?",
            "S: How much did {A} pay for the old bike?",
            "S~: How long was it before {A}'s motorcycle engine finally ran? @1",
            "S~: What does {A} still need before riding properly? @2",
            "M: How has {A}'s motorbike project gone since buying it? @0,1",
            "T: What happened with the bike {when2}? @1",
            "I~: Can {A} ride the Triumph on the motorway yet? @2",
        ],
        ("The garage smells of engine oil so badly the washing comes out smelling of it too.",),
    ),
    fact(
        "h8-knee",
        """
        A: Typing from the sofa, [[I tore my cruciate ligament playing five-a-side with the lads from work]]. It
            went pop like a champagne cork and I went down like a sack of potatoes.
        B: Oh, that sounds horrible. Will you need an operation?
        A: [[The surgeon says it needs reconstructing, and the waiting list is five months]].
        ---
        B: My sister did her knee skiing and now she can tell you when it's going to rain better than the weather
            forecast.
        A: I've been promised the same superpower.
        ---
        A: Knee update, [[I've had the operation, they used a strip of my hamstring to make a new ligament]]. I've
            got a brace from ankle to hip and I walk like a robot.
        B: How long until you're back on your feet?
        A: Physio three times a week. Walking normally in six weeks, they say.
        ---
        A: I've made my mind up, [[I've given up football for good and joined a rowing club instead]]. My physio
            nearly hugged me.
        B: Rowing! Early mornings on the river?
        A: Six on a Saturday. The knee is delighted, the rest of me is not.
        """,
        [
            "S~: How did {A} injure their knee?",
            "S~: What did the knee doctor say {A} needed? @1",
            "S~: What was used to rebuild {A}'s knee? @2",
            "S~: What sport does {A} do now instead of football? @3",
            "M: What's happened with {A}'s knee from the injury to the operation? @0,2",
            "T: What did {A} decide {when3} about sport? @3",
            "I~: Will {A} be back on the pitch with the office team this season? @3",
        ],
        ("The physio's waiting room has a skeleton in the corner that somebody keeps dressing in a scarf.",),
    ),
    fact(
        "h8-fostering",
        """
        A: Big step for us, [[we've been approved as foster carers after eight months of assessments]]. They asked
            about everything, even how we argue about loading the dishwasher.
        B: That's wonderful. Do you know who's coming?
        A: Not yet, it could be any age. We've painted the spare room a neutral green and bought a night light.
        ---
        B: A teacher at my son's school fostered over fifty children in thirty years, and some of them still come
            back for Christmas dinner with their own kids.
        A: That's the dream, honestly.
        ---
        A: [[Our first placement has arrived, a seven-year-old boy called {child} who only eats food that's
            beige]]. He came with one bin bag of clothes and a plastic dinosaur.
        B: Oh, bless him. How's he settling in?
        A: He's started calling the dog his brother.
        ---
        A: Some news, [[we've applied to adopt {child}, and the court hearing is in June]]. His social worker cried
            when we told her.
        B: Oh my goodness, that's beautiful.
        A: He asked if the dinosaur can stay too. We said obviously.
        """,
        [
            "S~: What were {A} and their partner approved to do?",
            "S~: How long did {A}'s fostering checks go on?",
            "S~: Who came to live with {A}'s family? @1",
            "S~: What does {child} like to eat? @1",
            "M: What has happened with {child} since he came to stay with {A}? @1,2",
            "T: What did {A} tell you {when2} about the foster child? @1",
            "T: What did {A} decide {when3} about {child}? @2",
            "I~: Does {A} want {child} to stay with them for good? @2",
        ],
        ("{child}'s dinosaur has its own place at the table now, with a plate.",),
        child=FOSTER_KIDS,
    ),
    fact(
        "h8-cycle",
        """
        A: I've committed to something stupid, [[I'm cycling from Land's End to John o'Groats in September to raise
            money for {charity}]]. Nine hundred and seventy miles in fourteen days.
        B: Have you got a proper road bike?
        A: A second-hand one with drop handlebars, so light I can lift it with one finger.
        ---
        B: My neighbour did a charity ride to Paris and said the worst bit wasn't the hills, it was the saddle
            sores.
        A: Everyone keeps saying saddle sores. I'm terrified.
        ---
        A: I made it, [[I reached John o'Groats on day fifteen, a day late after a run of punctures in Devon, and
            raised four thousand two hundred pounds]]. I cried at the signpost.
        B: That's incredible! How's your body?
        A: My knees are forty years older than the rest of me.
        """,
        [
            "S~: What long-distance bike trip did {A} sign up for?",
            "S: Who was {A}'s ride raising money for?",
            "S~: How much did {A} collect for the charity? @1",
            "S~: How many days did it take {A} to get to the end? @1",
            "M: What challenge did {A} take on and how did it end? @0,1",
            "T: What did {A} tell you {when2} about the ride? @1",
            "I~: Did {A} finish the trip on schedule? @1",
        ],
        ("I've been eating flapjack by the kilo, it's apparently part of the training.",),
        charity=CHARITIES,
    ),
    fact(
        "h8-bonsai",
        """
        A: I've got a new baby, [[a sixty-year-old juniper bonsai I bought from a nursery in {place}]]. It cost
            more than my first car and I talk to it every morning.
        B: Don't you have to trim it with little scissors?
        A: Tiny scissors, copper wire and a lot of patience. I've only got the scissors.
        ---
        B: There's a bonsai on the reception desk at my office and I'm fairly sure it's plastic, nobody has ever
            watered it.
        A: That's the only kind I'd trust myself with, apparently.
        ---
        A: Terrible news, [[I left the juniper out on the patio in the hard frost and it died]]. Brown from top to
            bottom.
        B: Oh no, after all that money.
        A: I'm not ready to talk about it.
        ---
        A: Moving on, [[I've got a hardy Japanese maple now, and I've joined the bonsai club that meets at the
            library]]. The maple is happy outside all year, the man at the club promised.
        B: A fresh start.
        A: It's gone bright red for autumn and I'm smitten.
        """,
        [
            "S~: What miniature tree did {A} buy?",
            "S: Where did {A} get the juniper?",
            "S~: What killed {A}'s juniper? @1",
            "S~: What little tree does {A} have now? @2",
            "M: What happened to {A}'s first bonsai and what replaced it? @1,2",
            "T: What sad news did {A} tell you {when2}? @1",
            "I~: Does {A} still have the expensive juniper? @1",
        ],
        ("The copper wire for the branches keeps turning up in the hoover.",),
        place=NURSERIES,
    ),
    fact(
        "h8-radio",
        """
        A: I've gone full nerd, [[I passed my amateur radio licence exam and my call sign is {callsign}]]. There's
            an aerial on the chimney now and the neighbours think I'm a spy.
        B: Who do you even talk to?
        A: Mostly a retired vicar in Aberdeen. He's lovely, and he talks about his marrows.
        ---
        B: My grandpa had a CB radio in his lorry and called himself Rubber Duck, and my gran never let him forget
            it.
        A: Every trucker was a Rubber Duck back then.
        ---
        A: Best night ever, [[I spoke to a scientist at a research base in Antarctica over the radio]]. Four
            minutes of crackle, and he said it was minus forty outside.
        B: Antarctica! From your shed?
        A: From my shed, in my slippers, with a cup of cocoa.
        """,
        [
            "S~: What exam did {A} pass for their new hobby?",
            "S: What is {A}'s call sign?",
            "S~: Who's the furthest away person {A} has chatted to on the radio? @1",
            "M: What new hobby did {A} take up and what's the highlight been so far? @0,1",
            "T: What did {A} tell you {when2} about the radio? @1",
            "I~: Has {A} reached someone at the bottom of the world? @1",
        ],
        ("The aerial on the chimney wobbles in the wind and the pigeons love perching on it.",),
        callsign=CALL_SIGNS,
    ),
    fact(
        "h8-listening",
        """
        A: I've started something I've wanted to do for years, [[I'm training as a volunteer on the Samaritans
            phone line, one overnight shift every fortnight]]. Twelve weeks of role-play first.
        B: That's a heavy thing to carry. Do they look after you?
        A: There's a debrief after every shift, and a great many biscuits.
        ---
        B: A friend of mine did a crisis text line for a while and said the night shifts were the busiest, people
            are loneliest at four in the morning.
        A: That's exactly what they told us in training.
        ---
        A: [[I did my first shift on my own on Saturday night and took nineteen calls]]. One man only wanted
            somebody to know it was his birthday, so I sang to him, badly.
        B: Oh, that's beautiful.
        A: I slept the whole of Sunday.
        """,
        [
            "S~: What sort of volunteering is {A} doing?",
            "S~: How often does {A} do a night on the phones?",
            "S~: How many people rang during {A}'s first shift alone? @1",
            "M: What charity work did {A} start and how did the first shift go? @0,1",
            "T: What did {A} tell you {when2} about the volunteering? @1",
            "I~: Has {A} finished the training now? @1",
        ],
        ("The volunteers' kitchen has a biscuit tin with a rota taped to the lid.",),
    ),
]

GREETINGS = (
    ("{B}! Have you got five minutes? I've got a cuppa and a biscuit.", "I've got ten, {A}. Dunk away."),
    ("Evening {B}, sorry, I've been a ghost lately.", "A ghost who texts, {A}, so not so bad. How's things?"),
    ("{B}, I'm on my lunch break in the car park.", "Glamorous, {A}. Talk to me while you eat."),
    ("Hiya {B}, is this a bad time?", "Never a bad time for you, {A}. I'm only folding socks."),
    ("{B}, I've been saving up news for you.", "Oh good, {A}, I love a backlog. Go."),
)
CLOSINGS = (
    ("The washing machine's finished, {B}, I'd better hang it out.", "Go on, {A}, before it creases. Bye!"),
    ("My eyes are closing, {B}. Night.", "Night {A}, speak soon."),
    ("Got to pick the kids up, {B}, bye for now.", "Bye {A}, good luck at the school gate."),
    ("Lovely to catch up, {B}. Same time next week?", "Definitely, {A}. Take care."),
)
TALK = (
    (
        "Did you manage to get the car through its MOT?",
        "Just about. It needed two new tyres and a wiper, and the man sucked his teeth a lot.",
    ),
    (
        "Have you been to the new bakery by the station?",
        "Three times. The cinnamon buns are the size of a baby's head, I'm not even sorry.",
    ),
    (
        "What are you reading at the moment?",
        "A doorstop of a fantasy book with a map at the front. I've got to page sixty and met forty people.",
    ),
    (
        "Did your sister's birthday party go all right?",
        "It was lovely until the karaoke started and my uncle did nine songs in a row.",
    ),
    (
        "How's the weather been with you?",
        "Sideways rain all week. My umbrella has given up and so have I.",
    ),
    (
        "Did you sort out the broadband in the end?",
        "A man came, looked at the box, turned it off and on again, and charged us forty pounds.",
    ),
    (
        "Are you watching anything good?",
        "A baking show where everyone cries about sponge. I watch it every night like medicine.",
    ),
    (
        "Have you booked the summer yet?",
        "We're arguing between a caravan in Wales and staying home and pretending the garden is Spain.",
    ),
    (
        "How did the dentist go?",
        "No fillings, but she told me off for not flossing, which I deserved.",
    ),
    (
        "Did you ever find your house keys?",
        "In the fridge, next to the butter. I have no memory of putting them there.",
    ),
    (
        "What did you have for tea?",
        "Beans on a jacket potato, with cheese on top, like a student.",
    ),
    (
        "Are the neighbours still building that extension?",
        "Week nine. The cement mixer starts at half seven and I've started dreaming in drilling.",
    ),
)
REACTIONS = (
    "Oh, bless you.",
    "Ha, that's brilliant.",
    "Oh dear.",
    "Well, good for you.",
    "No way.",
    "That's so you.",
    "Oof, I feel that.",
)
SENTENCES = (
    "Sorry, this is turning into an essay.",
    "The boiler made a noise this morning like a whale singing.",
    "I've got a list of jobs on the fridge that's now longer than the fridge.",
    "Our road's been resurfaced and it smells of tar all day.",
    "I ate a whole packet of custard creams standing at the counter yesterday.",
    "The dog next door has taken to howling along with the ice cream van.",
    "Work's been fine, lots of meetings that could have been emails.",
    "I found a receipt from two years ago in my jeans and it had been through the wash twice.",
    "My reading glasses are always on my head when I'm looking for them.",
    "There's a fox that trots past the kitchen window at eleven every night like it's on a schedule.",
    "I keep meaning to ring the bank and then it's five o'clock.",
    "The clocks went back and my body still hasn't noticed.",
    "I've been trying to cut down on sugar and so far it's going badly.",
    "Anyway, that's enough of me, how are you really?",
    "We should get something in the calendar before the year disappears.",
    "The trains have been all over the place all week.",
    "Our kitchen light has started buzzing like a wasp.",
    "I've started a crossword every morning and I've finished none of them.",
    "My mum sent me a link to a recipe and then rang to ask if I'd opened it.",
    "The sun came out for an hour on Tuesday and everyone went a bit giddy.",
    "It's so good to chat, I've been talking to nobody but the kettle.",
    "Our washing line snapped in the wind and the duvet cover ended up in the hedge.",
)
