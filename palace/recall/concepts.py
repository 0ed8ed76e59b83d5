"""Concept groups: a general word a question uses and the specific words a conversation says instead.

"What pets does Maya have?" is answered by "we adopted a rescue greyhound"; "is he good with computers?" by
"I'm teaching a JavaScript class"; "how long is the commute?" by "twenty minutes each way". Each line of
the table is one concept: its general words (before the colon) and the words that are kinds, parts or
answers of it (after). A query word that is a general word also finds the specific ones, one way only ("pet"
finds "dog", "dog" does not find "cat"), at `Tuning.concept_weight` of their own weight (their idf: a rare
specific word counts more than a common one, and the common-term discount applies as to any term).

Written by hand from everyday topics (hobbies, family, work, food, places, time of day, health, money,
amounts), English and Chinese; kept to words whose everyday sense is the concept's. Read as a query reads
them: stemmed, a Chinese word as its bigrams, a lone Chinese character (a unit after a number: "十天" is
indexed as "10" and "天") as that character.
"""

from __future__ import annotations

from palace.recall.expand import stem_initial
from palace.recall.text import QueryTerm, stem

_CONCEPTS = """
pet animal: dog puppy cat kitten rabbit bunny hamster parrot budgie ferret tortoise turtle goldfish guinea horse
    pony lizard snake greyhound terrier spaniel labrador
animal animals livestock farm: goat sheep lamb pig cow cattle donkey alpaca llama chicken hen horse
insect bug: bee wasp ant moth butterfly beetle spider mosquito fly ladybird
bird: pigeon robin owl seagull gull parrot crow duck swan hen chicken
wildlife nature outdoors outdoor: hike hiking trail camping tent mountain forest woods lake river beach bird fox
    deer frog pond garden climbing kayak
family relative relatives: mum mom dad mother father sister brother aunt uncle cousin grandma grandpa grandmother
    grandfather niece nephew son daughter husband wife parents twins baby
spouse married: husband wife partner wedding
child children kid kids: son daughter baby toddler twins school boy girl
parent parents: mum mom dad mother father
sibling: sister brother twin
instrument musical music: piano guitar bass violin cello drum drums ukulele flute saxophone trumpet clarinet harp
    keyboard band choir sing singing song gig concert
sport sports exercise fitness active athletic: run running jog marathon triathlon gym swim swimming cycling bike
    football tennis yoga climbing bouldering rowing hockey cricket rugby golf boxing dance netball badminton squash
race event: marathon half_marathon triathlon 10k 5k parkrun sportive
climb climbing: bouldering boulder wall
dance dancing: tango salsa ballet waltz swing
hobby hobbies pastime: knitting painting pottery baking gardening photography fishing chess reading
computer computers software tech technology programming program coding code developer: javascript python java
    typescript script app website laptop database server code coding programmer developer
crime detective mystery: detective murder thriller police mystery
story stories book books reading: novel book chapter library series
film films movie movies show shows tv: series episode documentary cinema netflix
job work career workplace position role: boss manager colleague promoted promotion hired fired salary interview
    offer resign lead team
promotion promoted: head manager lead director senior
money cost price spend spent expensive cheap save saved afford pay paid: dollar dollars pound pounds euro euros quid
    bucks cost paid price budget
far distance: kilometre kilometres km mile miles metre metres
food eat eating meal cook cooking: dinner lunch breakfast recipe bake baking pie cake bread pasta soup curry salad
    cheese meat fish vegetarian vegan pescatarian
diet: vegetarian vegan pescatarian meat fish sugar gluten
baby babies pregnant pregnancy: boy girl twins son daughter born birth
pottery ceramics: kiln clay glaze wheel mug bowl vase
charity fundraising fundraiser sponsor sponsored: raise raised donate donation sponsor target aim hospice
move moving landlord rent: landlord lease tenancy rent moved removal flat house
single dating: boyfriend girlfriend date dating together relationship
meat: beef pork bacon chicken steak ham lamb sausage burger
vegetarian vegan: meat lentil tofu vegetable vegetables
drink drinking: coffee tea beer wine water juice
dairy: cheese milk yoghurt yogurt butter cream
dessert sweet: cake pudding ice biscuit cookie chocolate pie tart
health ill illness sick medical hospital injury injured hurt: doctor hospital surgery operation diagnosed clinic
    nurse pain broke broken fracture appointment emergency stone infection
emergency: hospital ambulance
eye eyes vision sight: glasses optician lens lenses
tooth teeth dental molar: dentist crown filling root_canal brace braces
hand hands: finger thumb wrist knuckle palm
sleep sleeping night bedtime tired: awake asleep insomnia bed nap woke waking
morning early: dawn sunrise breakfast alarm before
evening night: dinner bedtime tonight late midnight
weather: rain storm snow wind flood heatwave hail fog sunny
home house flat apartment: cottage flat apartment house bungalow studio
garden yard backyard: pond lawn shed vegetables tomatoes flowers allotment
holiday vacation trip travel abroad: flight flew hotel beach island train visit tour cruise
car vehicle drive driving: van clutch engine tyre garage mechanic petrol diesel electric toyota honda ford nissan
    volkswagen bmw audi tesla fiat vauxhall renault peugeot kia hyundai volvo skoda
shelter rescue: adopt adopted rescue shelter
volunteer volunteering charity community: volunteer charity donate fundraiser mentor mentoring food_bank
young teenager teenagers youth: teen teenagers students school
steal stole stolen theft robbed: burglar burglary broke thief police stolen
school education: teacher class lesson course exam homework university college
partner relationship couple dating: boyfriend girlfriend husband wife fiance fiancee
clothes clothing outfit: dress shirt jacket coat jeans trousers shoes boots scarf hat jumper sweater
furniture: sofa couch table chair bed desk wardrobe shelf bookcase
fruit: apple banana orange strawberry grape mango pear cherry peach lemon
vegetable vegetables veg: carrot potato tomato onion broccoli pepper cabbage spinach lettuce
celebration celebrate party: birthday anniversary wedding christmas
game games: chess cards poker puzzle crossword
illness: cold flu cough fever virus migraine
injury injured injure hurt: sprain sprained twisted bruise bruised stitches fracture fractured dislocated dislocate
    tore torn ligament tendon
vehicle: motorbike motorcycle scooter moped van lorry truck tractor
bike: motorbike motorcycle
hire hiring recruit recruiting recruitment: hired interview interviews candidate applicant
ensemble orchestra: orchestra band choir quartet
election elected vote voting: council councillor ward candidate ballot poll mayor parliament
hear hearing ear ears deaf: audiologist hearing_aid hearing_aids
tree trees: oak maple pine birch willow ash bonsai juniper
caffeine: coffee espresso latte cappuccino tea cola
alcohol alcoholic booze: wine beer cider gin vodka whisky whiskey rum prosecco champagne pub
genetic gene genes ancestry: dna
theatre theater drama acting: play rehearsal rehearsals audition stage panto musical cast
comedy comedian funny: stand_up comic joke jokes gig
aquarium: fish tank goldfish
cruise: ship liner
planet planets stargazing: mars jupiter saturn venus mercury neptune uranus telescope
skin: tattoo tattoos scar scars rash freckles sunburn
trial court: jury juror verdict judge
transport commute: bus train tram metro tube bike car drive cycle
shopping: supermarket market mall shop
language languages: french spanish german italian japanese korean mandarin chinese portuguese
宠物 动物: 狗 小狗 猫 小猫 兔子 仓鼠 鹦鹉 乌龟 金鱼
昆虫: 蜜蜂 马蜂 蚂蚁 蝴蝶 蜘蛛 蚊子
家人 家里 亲戚 家庭: 妈妈 爸爸 姐姐 哥哥 妹妹 弟弟 奶奶 爷爷 外婆 姥姥 姨 舅舅 叔叔 女儿 儿子 老公 老婆 双胞胎
孩子 小孩 宝宝: 儿子 女儿 双胞胎 宝宝 幼儿园 小学
乐器 音乐: 钢琴 吉他 贝斯 小提琴 大提琴 架子鼓 鼓 尤克里里 笛子 乐队 合唱 唱歌 演出
运动 锻炼 健身: 跑步 慢跑 马拉松 游泳 骑车 健身房 瑜伽 足球 篮球 羽毛球 网球 爬山 攀岩
电脑 软件 编程 程序: 代码 程序员 数据库 服务器 网站 笔记本 开发
工作 单位 职位 岗位: 公司 老板 同事 领导 主管 经理 升职 工资 上班 辞职 部门
钱 花了 费用 价格: 块 元 万 钱 工资 预算
多久 多长时间: 天 小时 分钟 星期 周 个月 年
多远: 公里 米 里
吃 饭 菜 做饭: 早饭 午饭 晚饭 菜谱 做菜 蛋糕 面包 饺子 面条
肉: 猪肉 牛肉 鸡肉 培根 牛排 羊肉
吃素 素食: 肉 蔬菜 豆腐
病 生病 毛病 疾病 医院 健康 受伤 急诊: 医生 大夫 手术 住院 诊断 疼 骨折 结石 检查 护士 中风 胃病 溃疡 癌症 肿瘤 高血压
    糖尿病 感冒 发烧
睡眠 睡觉 失眠 晚上: 醒 睡 熬夜 凌晨 床
早上 早起: 早上 凌晨 早饭 闹钟 上班前
天气: 下雨 台风 下雪 刮风 暴雨 冰雹 雾
家 房子: 公寓 房子 小区
衣服 穿: 裙子 衬衫 外套 夹克 牛仔裤 鞋 靴子 围巾 帽子 毛衣
家具: 桌子 餐桌 椅子 柜子 沙发 书架 衣柜 书桌
水果: 苹果 香蕉 橙子 草莓 葡萄 芒果 梨 樱桃 桃
蔬菜: 胡萝卜 土豆 西红柿 洋葱 白菜 菠菜
对象 男朋友 女朋友: 男友 女友 老公 老婆 未婚夫 未婚妻
单身 恋爱 谈恋爱: 在一起 对象 男朋友 女朋友 相亲 约会 结婚
学车 驾校 考驾照: 科目一 科目二 科目三 倒车 教练 驾校 驾照 路考
研究生 读研 考研: 复试 初试 导师 硕士 研究生 考研
职业 行业: 医生 牙医 老师 律师 护士 程序员 会计 工程师 公务员
渠道 销售: 网店 淘宝 摆摊 直播 下单
营业 开店: 关门 倒闭 停业 转让 开业
右眼 左眼 双眼 视力: 眼睛 白内障 老花镜 眼镜 近视
小学 入学 上学: 幼升小 摇号 附小 学区
受伤 伤: 扭伤 骨折 缝针 淤青
交通 通勤: 公交 地铁 火车 自行车 开车
旅行 旅游 度假: 机票 飞机 酒店 火车 海边 岛 景点
被盗 偷 失窃: 小偷 警察 砸
志愿 公益 社区: 志愿者 慈善 捐 义工
"""  # a line that starts with spaces goes on with the line above

Alternative = tuple[QueryTerm, ...]  # the terms a specific word is searched as (a Chinese word: its bigrams)


def _terms(word: str) -> Alternative:
    if word.isascii():  # words joined by "_" ("root_canal") are searched as their words
        return tuple(QueryTerm(stem(part), False, 0) for part in word.casefold().split("_"))
    if len(word) == 1:
        return (QueryTerm(word, False, 0),)  # a unit after a number is indexed alone
    return tuple(QueryTerm(word[i : i + 2], False, 0) for i in range(len(word) - 1))


Key = tuple[str, bool]  # a general word's first term and whether it is a prefix
_lines: list[tuple[list[str], str]] = []  # the table's lines: (general words, specific words)
_specific: dict[int, list[Alternative]] = {}  # a line's specific words as query terms, once worked out
_buckets: dict[str, dict[Key, tuple[Alternative, ...]]] = {}  # by the first character of the key


def _read() -> list[tuple[list[str], str]]:
    """The table's lines (a line that starts with spaces goes on with the one above), read once."""
    if not _lines:
        joined: list[str] = []
        for line in _CONCEPTS.splitlines():
            if line.startswith(" ") and joined:
                joined[-1] += " " + line.strip()
            elif line.strip():
                joined.append(line.strip())
        for line in joined:
            heads, members = line.split(":", 1)
            _lines.append((heads.split(), members))
    return _lines


def _members(index: int) -> list[Alternative]:
    found = _specific.get(index)
    if found is None:
        found = _specific[index] = list(dict.fromkeys(_terms(word) for word in _read()[index][1].split()))
    return found


def _bucket(initial: str) -> dict[Key, tuple[Alternative, ...]]:
    """(a general word's first term, prefix) -> the specific words, each as the query terms it makes, for
    the general words whose first term starts with initial. A Chinese general word is keyed by its first
    bigram, so the table has only words whose first two characters already say the concept (no "多少钱":
    "多少" is any "how many"). Built a first character at a time: stemming the whole table cost ~13 ms of
    every search process, and a query looks up a few characters' worth."""
    table: dict[Key, tuple[Alternative, ...]] = {}
    for index, (heads, _members_text) in enumerate(_read()):
        for head in heads:
            if stem_initial(head) != initial:
                continue
            key_terms = _terms(head)
            # A lone Chinese character in a query is a prefix term ("病" in "生了什么病"): keyed as the query has it.
            key = (key_terms[0].text, key_terms[0].prefix or (len(head) == 1 and not head.isascii()))
            mine = tuple(s for s in _members(index) if s != key_terms)
            table[key] = tuple(dict.fromkeys((*table.get(key, ()), *mine)))
    return table


def concept_words(term: QueryTerm) -> tuple[Alternative, ...]:
    """The specific words of the concepts a query term names (none for most terms)."""
    initial = term.text[:1]
    bucket = _buckets.get(initial)
    if bucket is None:
        bucket = _buckets[initial] = _bucket(initial)
    return bucket.get((term.text, term.prefix), ())
