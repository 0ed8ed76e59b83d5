"""The ninth held-out chatty set's English facts, small talk and names (the form chatty_en.py describes).

Written blind, in the tenth round, for measuring only: by someone who had not read the ranking's code, word
tables, concepts or tests, and who read the earlier held-out sets only to keep clear of their subjects, names
and phrasings. Like the sixth to eighth sets: long turns over two to four stages spread over months, facts
that change later (the question asks what holds now, or what happened at one time), a stage told by the other
speaker on the same subject without the answer (a distractor), echoes that name the same people and places,
and questions in everyday words that say the thing differently from how it was told (the attic for the loft,
a plane with no engine for a glider, a card game for bridge), some of them only answerable by putting two
things together.
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "
NAMES = (
    "Ephraim",
    "Horatio",
    "Euphemia",
    "Cornelius",
    "Hyacinth",
    "Anselm",
    "Dorothea",
    "Lucinda",
    "Septimus",
    "Philomena",
)

STARTERS = ("Gertrude", "Bubbles McGee", "the Beast")
BAKERIES = ("the Crust and Crumb on Wharf Lane", "a tiny Polish bakery behind the bus station", "Loaf Society")
COUPLES = ("Priya and Tom", "Hamish and Dev", "Sophie and Marcus")
WEDDING_VENUES = ("a barn outside Thirsk", "a lakeside hotel near Keswick", "an old mill in Hebden Bridge")
TEAMS = ("Ashgrove Otters", "Kingsmead Kestrels Juniors", "Fairfield Foxes")
GOLF_CLUBS = ("Thornbury Park", "Castle Rise", "Bramhall Heath")
BOXING_GYMS = ("Dockside ABC", "the Ironworks gym", "Kelly's boxing club above the tyre place")
BOXING_CAUSES = ("the mental health charity my cousin works for", "the local youth centre", "a dementia charity")
AIRFIELDS = ("Sutton Bank", "Lasham", "the Long Mynd")
MAGIC_NAMES = ("Marvello", "the Great Zamboni", "Professor Whimsy")
MAGIC_SOCIETIES = ("the Midlands Magic Circle", "the Order of the Silver Wand", "the Northern Conjurors' Guild")
PAPERS = ("the Yorkshire Post", "the Western Morning News", "the Eastern Daily Press")
SETTER_NAMES = ("Magpie", "Lantern", "Dormouse")
BRIDGE_PARTNERS = ("Gwendolyn", "Winston", "Audrey")
BRIDGE_VENUES = ("the cricket pavilion", "the Quaker meeting house", "the bowls club")
BUILDERS = ("Gary from Hollis Lofts", "two brothers called Kowalski", "a builder called Big Dave")
ATTIC_KIDS = ("Rafferty", "Tamsin", "Maisie")
BOATS = ("Dabchick", "Slow Progress", "Maid of Marple")
CANALS = ("the Kennet and Avon", "the Llangollen canal", "the Grand Union")
MARINAS = ("Devizes", "Ellesmere", "Braunston")
PLUMB_FIRMS = ("Hughes and Daughter", "Ferris Heating", "a one-man outfit called Pipe Dreams")
PLUMB_BRANDS = ("Drip Doctor", "Tap and Tank", "Flow Right")
SCHOOLS = ("St Aidan's Primary", "Meadowbank Juniors", "Hillcrest Primary")
HEADS = ("Mrs Okafor", "Ms Brennan", "Miss Achterberg")
GLASS_STUDIOS = ("the adult college on Queen Street", "a studio in an old chapel", "the arts centre by the quay")
WINE_SCHOOLS = ("a wine school in Bath", "the college in Chester", "a cellar bar in Leith")
WINE_SHOPS = ("Corks of Ludgate", "the Bottle Cellar on Friar Street", "Vine and Barrel")
RABBITS_ONE = ("Pudding", "Truffle", "Captain Floof")
RABBITS_TWO = ("Sprocket", "Nettle", "Teasel")
RESCUES = ("the rabbit rescue in Stroud", "a sanctuary near Ripon", "the RSPCA centre")

FACTS = [
    fact(
        "h9-sourdough",
        """
        A: Don't laugh, but I'm now a person who feeds a jar, [[I've got a sourdough starter called {starter} on the
            windowsill and I bake a loaf every Sunday morning]]. The first four came out flat as frisbees and the
            birds wouldn't even eat them.
        B: A jar with a name, I love it. Where did it come from?
        A: [[The woman who runs {bakery} gave me a spoonful of hers]], she says hers is older than I am and I
            believe her.
        ---
        B: My mum has a bread machine that she sets before bed and it wakes the whole house up at five with a
            noise like a cement mixer, then there's a perfect square loaf and she's very smug about it.
        A: That's cheating, but I'd eat it.
        ---
        A: A tragedy in the kitchen, [[{starter} died while we were on holiday in the heatwave, it went grey and
            furry and smelled like old socks]]. I had to go back to the bakery and beg for another spoonful, and
            she laughed at me for a full minute.
        B: Oh no! Is the new one behaving?
        A: It's fizzier than the old one, if anything. I'm not letting it out of my sight.
        ---
        A: I've levelled up, [[I've moved on to dark rye loaves with caraway, and I'm teaching a bread class at the
            village hall once a month]]. Eight people came to the first one and only one loaf caught fire.
        B: You, teaching! From frisbees to a class.
        A: I tell them about the frisbees first, it makes everyone relax.
        """,
        [
            "S~: What does {A} keep alive in a jar to make bread with?",
            "S~: Who gave {A} the yeasty mixture in the first place? @1",
            "S~: What went wrong with {A}'s first leaven? @2",
            "S~: What kind of bread does {A} make these days? @3",
            "M: How has {A}'s home baking gone from the first starter to now? @0,3",
            "T: What did {A} tell you about the kitchen {when2}? @2",
            "I~: Does {A} pass on their baking know-how to other people? @3",
        ],
        ("The lady at {bakery} keeps asking after {starter} like it's a grandchild.",),
        starter=STARTERS,
        bakery=BAKERIES,
    ),
    fact(
        "h9-officiant",
        """
        A: I've been given the most terrifying honour, [[{couple} have asked me to be the celebrant at their wedding,
            so I'm the one actually marrying them]]. I had to do an online course and swear an oath in my kitchen.
        B: That's huge! Where's it happening?
        A: [[It's at {venue} in June]], and I have to write the whole ceremony, vows and all.
        ---
        B: At my cousin's wedding the registrar got lost and turned up forty minutes late, so the bride did a lap of
            the car park in the vintage car until the poor man arrived covered in sweat.
        A: That's my actual nightmare, I'm putting four alarms on.
        ---
        A: I did it, it's done, they're married, [[but the dog who was carrying the rings ran off into the lake and
            we had to wait while the best man waded in after him]]. Everyone was crying with laughter, including
            me, while I was meant to be solemn.
        B: Did the rings survive?
        A: Still tied on with ribbon, soggy but fine.
        ---
        A: Word has got around, [[three more couples have asked me to do their weddings, so I'm charging now and
            I've got a little website]]. I've become a sort of freelance vicar, without the God part.
        B: A side business out of one wedding!
        A: I've banned dogs with rings, though. Strictly human ring bearers.
        """,
        [
            "S~: What part has {A} been asked to play at {couple}'s big day?",
            "S~: Where is {couple}'s wedding taking place? @1",
            "S~: What went wrong in the middle of the ceremony? @2",
            "S~: How many other pairs have booked {A} since? @3",
            "M: How did {A} go from leading one wedding to doing it for others? @2,3",
            "T: What happened at the wedding {A} told you about {when2}? @2",
            "T: What had {A} been asked to do when you talked {when0}?",
            "I~: Was the ring bearer at {couple}'s wedding a person? @2",
            "I~: Does {A} get paid for running marriage ceremonies now? @3",
        ],
        ("{couple} sent me a photo of the soggy ribbon in a frame, which is very them.",),
        couple=COUPLES,
        venue=WEDDING_VENUES,
    ),
    fact(
        "h9-coaching",
        """
        A: I've been volunteered, [[I'm coaching my son's under-nines football team, the {team}, every Saturday
            morning]]. Nobody else put their hand up at the parents' meeting and I made the mistake of looking up.
        B: Do you know anything about football tactics?
        A: I know you're meant to stand on the touchline and shout "spread out". That's my whole plan.
        ---
        B: My nephew's started rugby and they spend the whole session rolling in mud, his mum has to hose him down in
            the garden before he's allowed in the house.
        A: Same with football, honestly. Our washing machine has given up.
        ---
        A: First season's over, and [[we lost every single match, eleven out of eleven, and scored three goals all
            year]]. The kids didn't care at all, they just wanted the orange slices at half time.
        B: Eleven defeats! Are you doing it again?
        A: I've signed up for a coaching badge course. I'm not going through that again without help.
        ---
        A: You won't believe it, [[we won the end-of-season cup on penalties, and our goalie saved three in a row]].
            The parents ran on the pitch and I cried into a bag of oranges.
        B: From zero wins to a trophy!
        A: The trophy is smaller than a pint glass and it's the best thing I own.
        """,
        [
            "S~: What does {A} do with the kids' soccer side at weekends?",
            "S: What is {A}'s team called?",
            "S~: How did {A}'s lot do in their first year? @1",
            "S~: What silverware did the {team} pick up? @2",
            "M: How have the {team} done since {A} started coaching? @1,2",
            "T: What did {A} tell you {when3} about the children's team? @2",
            "I~: Has {A}'s side ever had a winning season? @2",
        ],
        ("The {team} have new shirts with a sponsor on, the chippy round the corner.",),
        team=TEAMS,
    ),
    fact(
        "h9-gallbladder",
        """
        A: I've had a horrible fortnight, [[I kept getting stabbing pains under my ribs after eating, and the scan
            showed a load of gallstones]]. I thought it was a heart attack the first time and woke my husband up at
            two in the morning.
        B: Oh no, that sounds awful. What do they do about it?
        A: For now, no fried food, no cheese, basically nothing fun.
        ---
        B: A man at my work had kidney stones and said it was worse than anything, he went grey and lay on the
            floor of the staff kitchen until the ambulance came.
        A: That's almost exactly what it felt like, poor man.
        ---
        A: It's out, [[they took my whole gallbladder out with keyhole surgery, four tiny cuts, and I was home the
            same evening]]. I've got four plasters on my tummy in a pattern like a dice.
        B: The same day? That's amazing.
        A: I was eating toast in my own bed by nine.
        ---
        A: Good news on the food front, [[six weeks on I'm eating cheese again and I've had no pain at all]]. I had a
            whole plate of cheddar last night like a mouse let loose in a shop.
        B: Welcome back to dairy!
        A: The doctor said go slowly. I did not go slowly.
        """,
        [
            "S~: What was causing {A}'s tummy pains?",
            "S~: What operation did {A} have? @1",
            "S~: How long was {A} kept in hospital after the op? @1",
            "S~: Can {A} eat what they like now? @2",
            "M: What's happened with {A}'s stomach trouble from the diagnosis to now? @0,2",
            "T: What did {A} tell you {when2} about the hospital? @1",
            "I~: Does {A} still have a gallbladder? @1",
        ],
        ("The surgeon who did the keyhole op looked about nineteen, I swear.",),
    ),
    fact(
        "h9-golf",
        """
        A: I've turned into my father-in-law, [[I've taken up golf and joined {club}, he's been dragging me round
            every Sunday]]. My handicap is twenty-eight, which I'm told means I'm terrible but legal.
        B: Golf! Do you have the trousers?
        A: Checked ones. My kids won't be seen with me.
        ---
        B: My boss plays golf with clients and I'm sure it's an excuse to sit in the clubhouse from lunchtime, he
            never seems to know what score he got.
        A: The clubhouse is honestly the best part.
        ---
        A: The greatest moment of my life, [[I got a hole in one on the seventh, a little par three over the
            pond]]. Tradition says I buy a drink for everyone in the bar, so it cost me two hundred quid.
        B: A hole in one! Did anyone see it?
        A: My father-in-law, who hasn't had one in forty years. He's barely speaking to me.
        ---
        A: Golf update, [[my handicap's down to fourteen and I've been picked for the club's second team]]. We play
            other clubs on Saturday mornings and I have a team jumper.
        B: You're properly good now!
        A: Average, but in a nicer jumper.
        """,
        [
            "S~: What sport has {A}'s father-in-law got them into?",
            "S: Which club did {A} join?",
            "S~: What amazing shot did {A} pull off? @1",
            "S~: What is {A}'s handicap these days? @2",
            "M: How has {A}'s golf come on since they took it up? @0,2",
            "T: What happened on the course {when2}? @1",
            "T: What did {A} tell you {when3} about their game? @2",
            "I~: Did {A}'s lucky shot end up costing them money? @1",
        ],
        ("{club} has a sign by the pond warning about the swans, who are apparently vicious.",),
        club=GOLF_CLUBS,
    ),
    fact(
        "h9-boxing",
        """
        A: I've agreed to something daft, [[I'm doing a charity boxing match, eight weeks of training at {gym} and
            then a real fight in front of a crowd]]. I've never hit anybody in my life, apart from my brother when
            I was six.
        B: Actual punching? Who are you fighting?
        A: A man from an estate agent's called Rob. We've been matched by weight, so he's also soft round the middle.
        ---
        B: My dad watches boxing on the telly at two in the morning and shouts advice at the screen, as if the
            boxers in Las Vegas can hear him in Doncaster.
        A: I'll need him in my corner.
        ---
        A: It's over, [[I lost on a split decision after three rounds, but we raised eighteen hundred pounds for
            {cause}]]. I got a black eye and Rob bought me a pint afterwards.
        B: Eighteen hundred is amazing, black eye or not.
        A: The eye's gone purple and yellow, it looks like a sunset.
        ---
        A: I didn't stop, that's the funny thing, [[I still go to the gym three mornings a week and I've lost two
            stone since the fight]]. The trainer says I have a decent left hook now, too late for Rob.
        B: You look great in your photos.
        A: I feel great, apart from at six in the morning.
        """,
        [
            "S~: What fundraising event did {A} sign up to do?",
            "S: Where did {A} train for the fight?",
            "S~: Who won {A}'s bout? @1",
            "S~: How much money did the match bring in? @1",
            "S~: How often does {A} work out these days? @2",
            "M: How has the boxing changed {A} since the charity night? @1,2",
            "T: What did {A} tell you {when2} about the fight? @1",
            "I~: Is {A} lighter than they were before the match? @2",
        ],
        ("Rob from the estate agent's keeps sending me boxing memes on a Friday night.",),
        gym=BOXING_GYMS,
        cause=BOXING_CAUSES,
    ),
    fact(
        "h9-gliding",
        """
        A: Best birthday present ever, [[my sister gave me a trial flight in a glider at {airfield}, and I've joined
            the gliding club]]. No engine, you just get pulled up by a winch like a kite and then it's silent.
        B: Silent! Doesn't that freak you out?
        A: The first minute, yes. Then it's the calmest I've ever felt.
        ---
        B: My uncle won't fly at all, he took a ferry and three trains to get to my wedding in Spain, and spent the
            whole reception telling everyone about the ferry.
        A: I'd be the same with boats, so I get it.
        ---
        A: The big day, [[I flew solo for the first time after sixty-two training launches]]. The instructor just
            got out and said "off you go", and I sang the whole way round.
        B: On your own! What did you sing?
        A: Abba, badly. Nobody can hear you up there.
        ---
        A: Gliding news, [[I've done my first cross-country flight, forty miles without landing, just riding the
            warm air]]. I got a badge for it and sewed it on my jacket like a Brownie.
        B: Forty miles with no engine, that's unreal.
        A: I followed a buzzard for ten of them.
        """,
        [
            "S~: What did {A} get for their birthday?",
            "S: Where does {A} fly from?",
            "S~: How many practice launches did {A} need before going up alone? @1",
            "S~: What was the longest trip {A} has made in the air? @2",
            "M: How has {A}'s flying come along since the first go? @0,2",
            "T: What did {A} tell you {when2} about the club? @1",
            "I~: Has {A} flown a plane without a motor by themselves? @1",
        ],
        ("The clubhouse at {airfield} does a bacon sandwich that I'd fly for.",),
        airfield=AIRFIELDS,
    ),
    fact(
        "h9-magic",
        """
        A: Secret hobby reveal, [[I've been learning card tricks from videos, and I got into {society} after an
            audition in a room above a pub]]. I made a card appear in a man's shoe and he gasped like a child.
        B: Show me one next time! How do you practise?
        A: In front of the bathroom mirror, for hours, with the door locked.
        ---
        B: At my daughter's party the entertainer was a clown who kept forgetting the children's names, and he
            popped a balloon dog in a girl's face and made her cry.
        A: That's a crime against birthdays.
        ---
        A: It's become a job, almost, [[I perform at kids' birthday parties as {stage} most weekends now]]. I get
            forty quid and a slice of cake each time, and I've got a cape.
        B: A cape! What do the kids think?
        A: They mostly try to look up my sleeves.
        """,
        [
            "S~: What sort of tricks has {A} been teaching themselves?",
            "S~: What club for conjurors did {A} get into?",
            "S: What's {A}'s stage name? @1",
            "M: How has {A}'s magic gone from practising to performing? @0,1",
            "T: What did {A} tell you {when2} about the magic? @1",
            "I~: Does {A} get money for doing shows at children's parties? @1",
        ],
        ("The people at {society} meetings are all over seventy and all wear waistcoats.",),
        society=MAGIC_SOCIETIES,
        stage=MAGIC_NAMES,
    ),
    fact(
        "h9-crossword",
        """
        A: I've never been so proud of anything, [[{paper} has accepted a cryptic crossword I wrote, and it's
            printed this Saturday under the name {alias}]]. I spent three months on thirty clues.
        B: That's brilliant! Did they pay you?
        A: Eighty pounds. I'm going to frame the cheque instead of cashing it.
        ---
        B: My grandma does the crossword every morning in biro and she's done it since the sixties, if you move
            her newspaper she'll go for you.
        A: She sounds like my target audience.
        ---
        A: Slightly mortifying, [[readers wrote in to complain that one of the answers in my puzzle was spelled
            wrong]]. Forty-one letters. My editor says it means people care.
        B: Forty-one! That's a lot of people who got stuck.
        A: And one who wrote in green ink, very cross.
        ---
        A: All is forgiven, [[they've given me a regular puzzle every month now]]. I've got a notebook just for clue
            ideas, and I wake up at night with anagrams.
        B: A proper setter!
        A: My husband says I talk in anagrams in my sleep.
        """,
        [
            "S~: What kind of puzzle did {A} get published?",
            "S: What pen name does {A} use for the puzzles?",
            "S~: What did people moan about in {A}'s first puzzle? @1",
            "S~: How often does {A}'s work appear in the paper now? @2",
            "M: What has happened since {A}'s first puzzle was printed? @1,2",
            "T: What embarrassing thing did {A} tell you about {when2}? @1",
            "I~: Is {A} still writing puzzles for {paper}? @2",
        ],
        ("The puzzles editor at {paper} signs off every email with three kisses.",),
        paper=PAPERS,
        alias=SETTER_NAMES,
    ),
    fact(
        "h9-bridge",
        """
        A: I've joined the over-sixties without being sixty, [[I've started playing bridge at {venue} on Wednesday
            nights, and my partner is a retired headmistress called {partner}]]. She kicks me under the table when I
            bid wrong.
        B: Bridge! Isn't it impossibly complicated?
        A: It is. I have a cheat sheet in my handbag and she pretends not to see it.
        ---
        B: My family plays rummy at Christmas and it always ends in a row, my uncle hides cards up his jumper and
            denies it every single year.
        A: Bridge has rules about jumpers, I'm pretty sure.
        ---
        A: You'll be amazed, [[{partner} and I came second in the county pairs competition]]. There was a silver
            plate and I held it up like the World Cup.
        B: Second in the county! After a few months!
        A: All her, I just tried not to drop the cards.
        ---
        A: Sad bridge news, [[{partner} has moved to Portugal to be near her son, so now we play together online on
            Sunday evenings]]. She still tells me off, just by video.
        B: Oh, that's lovely that you kept going.
        A: The kicking under the table has stopped, at least.
        """,
        [
            "S~: What card game has {A} taken up?",
            "S: Who does {A} play with?",
            "S~: How did {A} and {partner} do in the county event? @1",
            "S~: Why don't {A} and {partner} sit at the same table any more? @2",
            "M: How has {A}'s partnership with {partner} gone since they started? @1,2",
            "T: What did {A} tell you {when3} about {partner}? @2",
            "I~: Do {A} and {partner} still meet on Wednesday nights? @2",
        ],
        ("{partner} sends me a bridge problem every morning and I get it wrong every morning.",),
        partner=BRIDGE_PARTNERS,
        venue=BRIDGE_VENUES,
    ),
    fact(
        "h9-loft",
        """
        A: The house is chaos, [[we're having the loft converted, and {builder} started on Monday]]. There's a skip
            on the drive and a ladder through the landing ceiling.
        B: How long is it meant to take?
        A: Ten weeks, they say. I've added four in my head already.
        ---
        B: When my neighbours did their attic they found an old suitcase full of love letters from the fifties, and
            now they're trying to track down the family.
        A: We found a dead pigeon and a Christmas tree stand, so less romantic.
        ---
        A: Work has stopped, [[they found bats roosting in the roof, so everything's on hold until the bat survey
            in the spring]]. We've got a tarpaulin over a hole and a bat man coming with a torch.
        B: Bats! Can you move them?
        A: Absolutely not, they're protected. They have more rights than me in my own house.
        ---
        A: It's finished at last, [[the loft is a bedroom for {kid} with a big skylight and a desk]], and the bats
            have their own little box on the gable end.
        B: Is {kid} thrilled?
        A: {kid} has moved in and we haven't seen them since.
        """,
        [
            "S~: What building work was {A} having done on the house?",
            "S: Who is doing {A}'s conversion?",
            "S~: What held up the work in the roof? @1",
            "S~: What is the new attic room used for now? @2",
            "M: How did {A}'s loft project go from the start to the end? @1,2",
            "T: What problem did {A} tell you about {when2}? @1",
            "I~: Did wild animals stop the builders for a while? @1",
        ],
        ("{builder} drinks tea with six sugars and whistles the same song all day.",),
        builder=BUILDERS,
        kid=ATTIC_KIDS,
    ),
    fact(
        "h9-narrowboat",
        """
        A: We've done it, [[we sold the flat and we're living on a narrowboat called {boat} on {canal}]]. Fifty-seven
            feet long and seven wide, and the kitchen is the size of a wardrobe.
        B: Living on it full-time? What about the winter?
        A: There's a wood burner. I've become very serious about logs.
        ---
        B: We hired a boat on the Norfolk Broads one summer and my husband crashed it into a pub garden, and the
            landlord just kept pulling pints like it happened every day.
        A: It probably does, to be fair.
        ---
        A: Winter on the water has been rough, [[the water tank froze solid and we were iced in for nine days]]. I
            was boiling snow in a saucepan like a polar explorer.
        B: Nine days! How did you get to work?
        A: Walked along the towpath in wellies, with the laptop in a bin bag.
        ---
        A: We've settled down a bit, [[we've stopped cruising and taken a permanent mooring at the marina in
            {marina}, so the kids can stay at one school]]. There's a shower block and a washing machine, which
            feels like a spa.
        B: No more moving every fortnight?
        A: No more. We're almost normal.
        """,
        [
            "S~: What sort of home does {A}'s family live in now?",
            "S: What is the boat called?",
            "S~: What went wrong with {A}'s boat in the cold weather? @1",
            "S~: Where is {A}'s boat kept these days? @2",
            "M: How has life on the water changed for {A} since the move? @1,2",
            "T: What did {A} tell you {when2} about living afloat? @1",
            "T: Where did {A} say {when3} the boat would be staying? @2",
            "I~: Is {A} still moving their home along the canal every couple of weeks? @2",
        ],
        ("A heron sits on the roof of {boat} every morning like it's paying rent.",),
        boat=BOATS,
        canal=CANALS,
        marina=MARINAS,
    ),
    fact(
        "h9-plumber",
        """
        A: Mid-life crisis, the useful kind, [[I've quit my job handling insurance claims and started a plumbing
            apprenticeship with {firm}]]. At forty-one I'm the oldest apprentice they've ever had, and the lads call
            me Grandad.
        B: That's brave! Is the money okay?
        A: Terrible for two years, but I'll never have to sit in a call centre again.
        ---
        B: We've been waiting three weeks for a plumber to fix our dripping shower, he keeps saying "Thursday" and
            never saying which Thursday.
        A: Give me a year and I'll come round myself.
        ---
        A: I passed, [[I'm fully qualified and I've got my Gas Safe registration]]. I fitted my first boiler on my
            own last week and nothing exploded.
        B: Well done! What's next?
        A: Going it alone, I think.
        ---
        A: I've done it, [[I've started my own company called {brand}, with a van with my name on the side]]. I've
            got more work than I can handle and a waiting list like a dentist.
        B: Your own van! What colour?
        A: Bright green. You can see me coming from the other end of the town.
        """,
        [
            "S~: What trade is {A} training for?",
            "S~: What did {A} used to do for a living?",
            "S: Who took {A} on as an apprentice?",
            "S~: What's the name of {A}'s business? @2",
            "M: How has {A}'s career change gone from starting out to now? @0,2",
            "T: What did {A} tell you {when2} about the training? @1",
            "T: What big change did {A} tell you about {when0}?",
            "I~: Could {A} legally put a new boiler in for you? @1",
        ],
        ("The boss at {firm} has a bulldog that rides in the front seat of the van.",),
        firm=PLUMB_FIRMS,
        brand=PLUMB_BRANDS,
    ),
    fact(
        "h9-governor",
        """
        A: I said yes to something at the school gate again, [[I've become a parent governor at {school}]]. The first
            meeting was three hours about the budget for photocopying.
        B: Is it interesting at all?
        A: Parts of it. [[The head, {head}, is brilliant]], and she's been very patient with my questions.
        ---
        B: At my kids' school the PTA is run like a small army, there's a woman with a clipboard who makes everyone
            bake for every single fair.
        A: I've met that woman. Every school has one.
        ---
        A: Huge week, [[the inspectors came and the school went from "requires improvement" to "good"]]. {head} did
            a little dance in the staff room and so did I.
        B: That's fantastic, you must all be thrilled.
        A: The kids got an extra playtime, which they thought was the real prize.
        ---
        A: More responsibility, [[I've been voted chair of the governors]]. I now get emails at ten at night about
            drains.
        B: Chair! Does that mean you're in charge?
        A: In charge of the agenda, mostly, and the biscuits.
        """,
        [
            "S~: What voluntary role has {A} taken on at the primary?",
            "S: Who is the headteacher at {school}? @1",
            "S~: How did {school} do in its inspection? @2",
            "S~: What position does {A} hold on the board now? @3",
            "M: How has {A}'s time as a governor gone since joining? @0,3",
            "T: What good news about the school did {A} share {when2}? @2",
            "I~: Is {school} still rated as needing to improve? @2",
        ],
        ("{school} has a vegetable patch run by the year fours and the courgettes are enormous.",),
        school=SCHOOLS,
        head=HEADS,
    ),
    fact(
        "h9-meadow",
        """
        A: I've done a wild thing to the garden, [[I dug up the whole front lawn and sowed a wildflower meadow
            instead]]. Right now it looks like mud with ambitions.
        B: What did the neighbours say?
        A: One of them has said nothing at all, which is louder than anything.
        ---
        B: My father-in-law mows his lawn in stripes twice a week and measures the grass with a ruler, and he treats
            a dandelion like a personal insult.
        A: He'd hate me. He'd absolutely hate me.
        ---
        A: Trouble, [[the man across the road complained to the council that my garden is untidy]]. The council
            wrote back to say it's allowed, and he's taken to glaring at the poppies.
        B: Ha! Over flowers?
        A: Over flowers. He's a hedge-trimmer man.
        ---
        A: Meadow joy, [[a lady from the wildlife trust came and counted nineteen kinds of bee and butterfly in it]].
            She's putting my garden in the newsletter.
        B: That's a real result.
        A: I've printed it out and left it on the doormat across the road.
        """,
        [
            "S~: What did {A} replace the grass out front with?",
            "S~: Who moaned about {A}'s garden and to whom? @1",
            "S~: What did the nature charity find in {A}'s front garden? @2",
            "M: How has {A}'s meadow gone down with people since it was sown? @1,2",
            "T: What did {A} tell you {when2} about the neighbour? @1",
            "T: What did {A} do to the garden {when0}?",
            "I~: Does {A} still need to mow the front? @0",
        ],
        ("The poppies at the front are taller than the garden wall now.",),
    ),
    fact(
        "h9-stained-glass",
        """
        A: New evening thing, [[I'm doing a stained glass course at {studio} on Tuesday nights]]. You cut the glass
            with a little wheel and it makes the most satisfying snap.
        B: Isn't it dangerous?
        A: We wear goggles and there's a first aid box the size of a suitcase, which tells you something.
        ---
        B: Our church has a stained glass window of a saint holding a fish, and as a kid I was convinced the fish
            was winking at me.
        A: Maybe it was. Glass people have a sense of humour.
        ---
        A: Typing one-handed, [[I sliced my thumb on a sheet of blue glass and needed five stitches]]. I bled all over
            my lovely sea panel.
        B: Ouch! Are you going back?
        A: Next week, with better gloves.
        ---
        A: My big project's done, [[I made a panel with a heron and our house number for the window above the front
            door]]. The postman stopped to look at it and missed three houses.
        B: A heron! It must look amazing in the sun.
        A: At five o'clock the hall goes blue and green. I sit on the stairs just to watch it.
        """,
        [
            "S~: What craft is {A} learning in the evenings?",
            "S~: How did {A} hurt their hand? @1",
            "S~: What has {A} made for the front of the house? @2",
            "M: What happened to {A} at the glass class and what did they end up making? @1,2",
            "T: What did {A} tell you {when2}? @1",
            "I~: Did {A} need a trip to the doctor because of the glass? @1",
        ],
        ("The tutor at {studio} has a glass bird on every window of her van.",),
        studio=GLASS_STUDIOS,
    ),
    fact(
        "h9-wine",
        """
        A: A new hobby that's sort of homework, [[I've started a wine course at {school}, one evening a week]]. We
            spit into buckets, which feels very wrong and very fancy.
        B: Do you actually spit it out? What a waste.
        A: Mostly. On the last week I may have stopped spitting.
        ---
        B: My dad makes elderflower wine in the garage in plastic bins, and it's either delicious or it blows the
            lids off, you never know which.
        A: That's the kind of thing they warn us about in lesson one.
        ---
        A: Results day, [[I passed the level three exam with merit, but I mixed up a Rioja and a Chianti in the
            blind tasting]]. My tutor says everyone does it once, and then never again.
        B: Merit is great! Does it get you anything?
        A: A pin for my jacket and a lot of opinions.
        ---
        A: It's turned into a job, [[I'm working Saturdays at {shop}, recommending bottles to people]]. I get paid in
            money and a staff discount, which is really the point.
        B: Your dream job, basically.
        A: Someone asked me for a wine to go with a kebab and I nailed it.
        """,
        [
            "S~: What has {A} been studying in the evenings?",
            "S~: What grade did {A} get in the exam? @1",
            "S~: What did {A} get wrong in the tasting? @1",
            "S~: Where does {A} work at weekends now? @2",
            "M: How did {A}'s wine course lead on to a job? @1,2",
            "T: What did {A} tell you {when2} about the wine? @1",
            "I~: Is {A} paid to give people advice on what to drink now? @2",
        ],
        ("The owner of {shop} has a parrot that says cheers in three languages.",),
        school=WINE_SCHOOLS,
        shop=WINE_SHOPS,
    ),
    fact(
        "h9-rabbits",
        """
        A: Our family got bigger by four ears, [[we've adopted two rescue rabbits called {bun1} and {bun2} from
            {rescue}]]. They live in a hutch in the garden that cost more than my first car.
        B: Rabbits! Are they cuddly?
        A: {bun1} is. {bun2} thumps her foot at me whenever I walk past.
        ---
        B: My neighbour's kid has a guinea pig that squeaks every time the fridge opens, it's learned the sound of
            lettuce.
        A: That's genius, honestly.
        ---
        A: Rabbit crime, [[{bun1} got into the house and chewed through the broadband cable, so we were offline for
            three days]]. The engineer took a photo of the cable for his mates.
        B: Three days! How did you cope?
        A: We played board games. It was awful. Lovely, but awful.
        ---
        A: We've given in, [[the rabbits live in the house full-time now, and the old hutch is a planter for
            strawberries]]. They've got a litter tray and a cardboard castle.
        B: House rabbits!
        A: {bun2} has claimed the sofa. I sit on the floor.
        """,
        [
            "S~: What pets did {A}'s family take in?",
            "S~: Where did {A}'s bunnies come from?",
            "S~: Why did {A} lose the internet for days? @1",
            "S~: Where do {A}'s rabbits sleep now? @2",
            "M: How have things changed with {A}'s rabbits since they arrived? @1,2",
            "T: What did {A} tell you {when2} about {bun1}? @1",
            "I~: Do {A}'s pets still live outside in the garden? @2",
        ],
        ("The people at {rescue} send us a card on the rabbits' adoption day, every year.",),
        bun1=RABBITS_ONE,
        bun2=RABBITS_TWO,
        rescue=RESCUES,
    ),
]

GREETINGS = (
    ("{B}, I'm in the queue at the post office, talk to me.", "Oh, the post office queue, {A}. I'm here. Go."),
    ("Hello {B}! I've just sat down for the first time today.", "Put your feet up, {A}, and tell me everything."),
    ("{B}, are you free? I've got gossip and biscuits.", "Always free for both, {A}. Spill."),
    ("Afternoon {B}, it's raining so I'm indoors and bored.", "Same here, {A}. Entertain me."),
    ("{B}! Finally, I've been meaning to message for a week.", "Don't worry {A}, I've been the same. What's new?"),
)
CLOSINGS = (
    ("The dinner's burning, {B}, I'm off.", "Go rescue it, {A}! Bye."),
    ("I've got a call in five minutes, {B}. Later!", "Good luck with it, {A}. Talk soon."),
    ("That's me for tonight, {B}. Sleep well.", "You too, {A}. Night."),
    ("Right, back to the chaos. Bye {B}.", "Bye {A}, hang in there."),
)
TALK = (
    (
        "Did you get your bike fixed in the end?",
        "The shop said it needed a whole new chain and then charged me for a new bell I never asked for.",
    ),
    (
        "How was your brother's barbecue?",
        "He burned every sausage and then insisted they were meant to be like that.",
    ),
    (
        "Have you been sleeping in the heat?",
        "Not really, I've got a fan on full and it sounds like a helicopter landing.",
    ),
    (
        "Did you go to the school play?",
        "Yes, my niece was a tree and she took it very seriously, she didn't blink for ten minutes.",
    ),
    (
        "What did you get up to on Sunday?",
        "Cleared out the shed and found four broken deckchairs and a wasp nest the size of a football.",
    ),
    (
        "Have you tried that noodle bar yet?",
        "Twice. The portions are enormous and the chairs are tiny, which is a funny combination.",
    ),
    (
        "Are you still doing the step challenge at work?",
        "I'm on ten thousand a day, mostly by walking round the kitchen island at night.",
    ),
    (
        "How's the new phone?",
        "It's lovely, but it keeps correcting my name to Hamburger and I can't make it stop.",
    ),
    (
        "Did your mum like the flowers?",
        "She said they were lovely and then told me the price of the same ones at the market.",
    ),
    (
        "Any luck with the leaking gutter?",
        "My husband went up the ladder, looked at it for twenty minutes, and came down to google it.",
    ),
    (
        "What are you listening to at the moment?",
        "A podcast about shipwrecks. I play it on the train and look very gloomy.",
    ),
    (
        "Are you going to the summer fair?",
        "Only for the tombola. I've won a bottle of shampoo three years running.",
    ),
)
REACTIONS = (
    "Oh, stop it.",
    "Ha, amazing.",
    "Bless.",
    "Oh, that's rough.",
    "Honestly, what are we like.",
    "I'm cackling.",
    "Good grief.",
)
SENTENCES = (
    "Sorry, I've gone off on one again.",
    "The kettle's been making a strange ticking noise, I think it's on its way out.",
    "I've been living on toast and tea all week, which is fine, I'm fine.",
    "There's a pigeon that sits on our bins and stares at me through the window.",
    "The car's been making a squeak I'm choosing not to hear.",
    "I did a big shop and forgot the one thing I went in for.",
    "We've had workmen on the street since seven and nobody knows what they're doing.",
    "I've started going to bed at half nine, I'm basically a hundred.",
    "The toddler next door sings the same nursery rhyme through the wall every evening.",
    "My phone screen cracked in a shape like a map of Italy.",
    "I finally hoovered behind the sofa and found a whole family of lost socks.",
    "Anyway, enough about me, what have you been up to?",
    "We should plan a proper day out before the summer goes.",
    "It's been so windy the garden furniture has moved itself across the lawn.",
    "I'm on my third cup of tea and it's not even ten.",
    "I bought new trainers and they squeak on the office floor like ducks.",
    "The post keeps coming for someone called Trevor who hasn't lived here for years.",
    "It's so nice to natter, I've been stuck in spreadsheets all day.",
    "My glasses keep steaming up every time I open the oven.",
    "The library's started a book swap shelf and I've already taken more than I've left.",
    "I've been trying to drink more water and now I spend my life running to the loo.",
    "The sunset last night was bright orange, the whole street came out to take photos.",
)
