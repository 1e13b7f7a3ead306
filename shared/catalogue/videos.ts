import type { Video } from "./types";

/**
 * The built-in catalogue (spec §3): 50 original fictional works.
 *
 * videoFile is written both with and without a leading "/" on purpose — the raw
 * data is inconsistent and `shared/catalogue/index.ts` normalises it.
 */
// Laid out by hand (one video per block, its short fields on shared lines): the formatter leaves it.
// prettier-ignore
export const rawVideos: readonly Video[] = [
  {
    id: "video_001", title: "雾港来信",
    description: "一九四七年的雾港，邮差林默意外截下一封没有署名的信，信中预告了三天后的一桩命案。为了阻止悲剧，他循着邮戳走进了这座港城最深的秘密。",
    category: ["电影", "剧情", "悬疑"], tags: ["高分", "悬疑", "年代", "反转"],
    year: 2025, rating: 8.7, duration: "02:08:40", coverImage: "1.webp", videoFile: "1.mp4",
  },
  {
    id: "video_002", title: "星海拾光",
    description: "深空拾荒者苏砚在废弃空间站里捡到一段来自未来的求救信号。她带着一支临时拼凑的小队穿越小行星带，却发现信号的发出者正是多年后的自己。",
    category: ["电影", "科幻", "冒险"], tags: ["高分", "科幻", "烧脑", "4K"],
    year: 2025, rating: 9.1, duration: "02:21:15", coverImage: "2.webp", videoFile: "2.mp4",
  },
  {
    id: "video_003", title: "槐树巷的春天",
    description: "槐树巷里住着四户人家，三代人的柴米油盐、分分合合都在这条老巷子里上演。一场旧城改造的消息，让原本平静的邻里关系泛起了波澜。",
    category: ["电视剧", "家庭", "剧情"], tags: ["家庭", "温情", "市井"],
    year: 2025, rating: 8.6, duration: "45:00", coverImage: "3.webp", videoFile: "/3.mp4",
  },
  {
    id: "video_004", title: "声声入夏",
    description: "十二位来自不同城市的素人歌手入住海边小院，用一个夏天完成一张原创合辑。没有淘汰和排名，只有真诚的创作与彼此之间的默契。",
    category: ["综艺", "真人秀", "音乐"], tags: ["音乐", "治愈", "素人", "原创"],
    year: 2025, rating: 8.3, duration: "52:30", coverImage: "4.webp", videoFile: "4.mp4",
  },
  {
    id: "video_005", title: "云雾山间的四季",
    description: "镜头深入西南高山云雾带，记录一年四季里野生动植物的生存故事。从漫山的杜鹃花海到冬季的雪线，展现大山深处鲜为人知的生命奇观。",
    category: ["纪录片", "自然", "人文"], tags: ["高分", "自然", "4K", "治愈"],
    year: 2025, rating: 9.2, duration: "48:20", coverImage: "5.webp", videoFile: "5.mp4",
  },
  {
    id: "video_006", title: "胡同里的喜事",
    description: "退休厨师老周为了给女儿办一场体面的婚礼，张罗起整条胡同的街坊来帮忙。各种乌龙接连上演，笑声背后是一家人迟到多年的和解。",
    category: ["电影", "喜剧", "家庭"], tags: ["喜剧", "家庭", "温情"],
    year: 2025, rating: 8.4, duration: "01:46:20", coverImage: "6.webp", videoFile: "6.mp4",
  },
  {
    id: "video_007", title: "回声档案",
    description: "刑警队新人许念调入积案组，接手一桩尘封十年的失踪案。随着旧档案被一页页翻开，她渐渐发现当年的每一个证人都在说谎。",
    category: ["网络剧", "电视剧", "悬疑"], tags: ["悬疑", "刑侦", "反转", "烧脑"],
    year: 2025, rating: 8.9, duration: "46:10", coverImage: "7.webp", videoFile: "7.mp4",
  },
  {
    id: "video_008", title: "街巷寻味记",
    description: "每期节目走进一座城市，由嘉宾跟着当地老饕寻找街头巷尾的地道味道。从清晨的早点摊到百年老店，用一口烟火气读懂一座城。",
    category: ["综艺", "美食", "真人秀"], tags: ["美食", "旅行", "烟火气"],
    year: 2025, rating: 8.5, duration: "38:45", coverImage: "8.webp", videoFile: "8.mp4",
  },
  {
    id: "video_009", title: "漕船往事",
    description: "以大运河沿线的古镇、码头与船工后人为线索，讲述漕运兴衰的千年变迁。珍贵史料与实地走访相互印证，还原一条河流如何塑造了沿岸人的生活。",
    category: ["纪录片", "历史", "人文"], tags: ["历史", "人文", "运河"],
    year: 2025, rating: 8.8, duration: "50:00", coverImage: "9.webp", videoFile: "9.mp4",
  },
  {
    id: "video_010", title: "江上夜渡人",
    description: "退役拳手阿坤在江边经营一艘夜间渡船，某晚载上了一名被人追杀的女会计。为了护送她平安渡过这一夜，他不得不重新握紧拳头。",
    category: ["电影", "动作", "犯罪"], tags: ["动作", "犯罪", "硬核"],
    year: 2025, rating: 8.2, duration: "01:52:35", coverImage: "10.webp", videoFile: "10.mp4",
  },
  {
    id: "video_011", title: "末班车上的约定",
    description: "每天乘坐末班公交回家的两个陌生人，在车窗的倒影里默默注意着彼此。直到这条线路即将停运的那一晚，他们终于开口说了第一句话。",
    category: ["微电影", "电影", "爱情"], tags: ["爱情", "治愈", "都市"],
    year: 2025, rating: 8.6, duration: "00:24:30", coverImage: "11.webp", videoFile: "11.mp4",
  },
  {
    id: "video_012", title: "十七岁的晴空",
    description: "高二女生夏知遥转学来到海滨小城，加入了濒临解散的航模社。一群性格迥异的少年为了一场全国比赛，度过了他们最难忘的夏天。",
    category: ["电视剧", "青春", "剧情"], tags: ["青春", "校园", "热血", "治愈"],
    year: 2025, rating: 8.4, duration: "42:15", coverImage: "12.webp", videoFile: "/12.mp4",
  },
  {
    id: "video_013", title: "纸鸢与龙",
    description: "小镇女孩阿禾放飞的纸鸢意外唤醒了沉睡在山中的小龙。为了帮它找回失落的龙珠，一人一龙踏上了穿越云海的奇幻旅程。",
    category: ["动画", "电影", "奇幻"], tags: ["动画", "合家欢", "国风", "高分"],
    year: 2025, rating: 9.0, duration: "01:38:50", coverImage: "13.webp", videoFile: "13.mp4",
  },
  {
    id: "video_014", title: "寻味山野",
    description: "摄制组与美食嘉宾一起深入深山村落，跟随采菌人、养蜂人和猎户的脚步寻找山野之味。既有真实的人物故事，也有边走边做的轻松真人秀环节。",
    category: ["纪录片", "综艺", "美食"], tags: ["美食", "乡村", "治愈", "旅行"],
    year: 2025, rating: 8.7, duration: "47:30", coverImage: "14.webp", videoFile: "14.mp4",
  },
  {
    id: "video_015", title: "毒舌房东合租记",
    description: "为了凑够首付，职场新人林朵与毒舌房东签下了一份奇怪的合租契约。每天的生活都鸡飞狗跳，两人却在一次次争吵中渐渐心动。",
    category: ["短剧", "爱情", "喜剧"], tags: ["甜宠", "职场", "轻松"],
    year: 2025, rating: 8.1, duration: "12:30", coverImage: "15.webp", videoFile: "15.mp4",
  },
  {
    id: "video_016", title: "烽火邮差",
    description: "抗战时期，一名年轻的乡邮员在敌占区秘密传递情报。他骑着一辆旧自行车穿行于村庄之间，用一封封家书守护着无数人的希望。",
    category: ["电影", "历史", "剧情"], tags: ["高分", "年代", "家国", "热血"],
    year: 2025, rating: 9.1, duration: "02:12:05", coverImage: "16.webp", videoFile: "16.mp4",
  },
  {
    id: "video_017", title: "开麦吧，邻居",
    description: "普通社区里的居民组队登上舞台，用脱口秀讲述自己生活中的糗事与烦恼。笑料不断又温暖人心，是一档真正属于普通人的喜剧节目。",
    category: ["综艺", "喜剧", "真人秀"], tags: ["喜剧", "脱口秀", "素人"],
    year: 2025, rating: 8.3, duration: "55:20", coverImage: "17.webp", videoFile: "17.mp4",
  },
  {
    id: "video_018", title: "微光工程",
    description: "聚焦一支国产芯片研发团队，记录他们在实验室里反复试错、攻坚克难的真实日常。节目用通俗易懂的方式，讲解芯片制造中的关键环节。",
    category: ["纪录片", "科技"], tags: ["科技", "职场", "硬核"],
    year: 2025, rating: 8.8, duration: "44:40", coverImage: "18.webp", videoFile: "18.mp4",
  },
  {
    id: "video_019", title: "晨光律所",
    description: "三名刚拿到执照的年轻律师进入一家小型律所，从婚姻纠纷到劳动仲裁，每一个案件都让他们重新理解法律与人情之间的分寸。",
    category: ["电视剧", "剧情", "青春"], tags: ["职场", "律政", "成长"],
    year: 2025, rating: 8.5, duration: "43:50", coverImage: "19.webp", videoFile: "19.mp4",
  },
  {
    id: "video_020", title: "雨季未完",
    description: "摄影师江屿回到阔别十年的南方小城，偶遇当年不告而别的初恋。在连绵的雨季里，两人重新拼凑起那段被误会打断的青春。",
    category: ["电影", "爱情", "剧情"], tags: ["爱情", "文艺", "青春"],
    year: 2025, rating: 8.6, duration: "01:49:10", coverImage: "20.webp", videoFile: "20.mp4",
  },
  {
    id: "video_021", title: "无声的证词",
    description: "一桩发生在聋哑学校的命案，唯一的目击者只能用手语作证。年轻的手语翻译与老刑警搭档，在无声的世界里一步步寻找真相。",
    category: ["网络剧", "电视剧", "犯罪", "悬疑"], tags: ["高分", "悬疑", "刑侦", "反转"],
    year: 2025, rating: 9.0, duration: "47:05", coverImage: "21.webp", videoFile: "/21.mp4",
  },
  {
    id: "video_022", title: "西行借宿记",
    description: "几位性格各异的嘉宾自驾穿越西北大地，沿途借宿在牧民家中并参与当地劳作。在一路的风景与对话中，他们重新思考生活的意义。",
    category: ["综艺", "真人秀", "人文"], tags: ["旅行", "慢综艺", "治愈"],
    year: 2025, rating: 8.4, duration: "58:10", coverImage: "22.webp", videoFile: "22.mp4",
  },
  {
    id: "video_023", title: "候鸟的航线",
    description: "跟随斑头雁、黑颈鹤等候鸟跨越数千公里的迁徙之旅，记录它们在湿地、高原和沿海滩涂之间的停留与告别，见证生命的坚韧。",
    category: ["纪录片", "自然"], tags: ["高分", "自然", "4K", "生态"],
    year: 2025, rating: 9.3, duration: "49:30", coverImage: "23.webp", videoFile: "23.mp4",
  },
  {
    id: "video_024", title: "第零号时刻",
    description: "物理学家陈默在一次实验事故后，发现自己被困在事故发生前的十分钟里不断循环。他必须在有限的时间里，找出事故背后的真正原因。",
    category: ["电影", "科幻", "悬疑"], tags: ["烧脑", "科幻", "反转", "高分"],
    year: 2025, rating: 8.9, duration: "01:57:45", coverImage: "24.webp", videoFile: "24.mp4",
  },
  {
    id: "video_025", title: "沙洲守窟人",
    description: "影片以纪实与剧情重演相结合的方式，讲述几代文物保护者扎根西北戈壁、守护千年石窟壁画的故事。",
    category: ["电影", "纪录片", "历史"], tags: ["高分", "历史", "人文", "匠心"],
    year: 2025, rating: 9.2, duration: "01:35:20", coverImage: "25.webp", videoFile: "25.mp4",
  },
  {
    id: "video_026", title: "父亲的自行车",
    description: "儿子在整理老屋时找到一辆生锈的自行车，决定把它修好，送给即将过七十岁生日的父亲。这是一段关于沉默父爱的温情短片。",
    category: ["微电影", "电影", "家庭"], tags: ["家庭", "温情", "催泪"],
    year: 2025, rating: 8.7, duration: "00:31:10", coverImage: "26.webp", videoFile: "26.mp4",
  },
  {
    id: "video_027", title: "小狸猫大冒险",
    description: "好奇心旺盛的小狸猫豆豆离开森林，独自到城市里寻找走失的妹妹。一路上它结识了流浪猫、鸽子和仓鼠，收获了珍贵的友谊。",
    category: ["动画", "电视剧", "冒险", "家庭"], tags: ["动画", "合家欢", "萌宠"],
    year: 2025, rating: 8.5, duration: "22:00", coverImage: "27.webp", videoFile: "27.mp4",
  },
  {
    id: "video_028", title: "旋律合租屋",
    description: "六位独立音乐人住进同一栋老房子，每周围绕一个生活主题共同创作新歌。节目记录灵感碰撞的过程，也记录他们彼此成为朋友的点滴。",
    category: ["综艺", "音乐", "真人秀"], tags: ["音乐", "原创", "慢综艺"],
    year: 2025, rating: 8.2, duration: "56:45", coverImage: "28.webp", videoFile: "28.mp4",
  },
  {
    id: "video_029", title: "老手艺新传人",
    description: "走访全国各地的非遗工坊，讲述年轻一代如何接过竹编、漆器、刺绣等传统手艺，并让它们在当代生活中焕发新生。",
    category: ["纪录片", "人文", "历史"], tags: ["非遗", "匠心", "人文"],
    year: 2025, rating: 8.9, duration: "40:20", coverImage: "29.webp", videoFile: "29.mp4",
  },
  {
    id: "video_030", title: "纺织厂的姑娘们",
    description: "上世纪八十年代，几名进城女工在国营纺织厂里相识。从车间学徒到各自成家立业，她们的友情陪伴彼此走过时代的起起落落。",
    category: ["电视剧", "剧情", "历史"], tags: ["年代", "女性", "友情", "高分"],
    year: 2025, rating: 8.8, duration: "45:40", coverImage: "30.webp", videoFile: "30.mp4",
  },
  {
    id: "video_031", title: "雪线营救",
    description: "一支登山队在暴风雪中失去联络，退役搜救队员老韩临危受命，带队连夜上山。在海拔六千米之上，每一个决定都关乎生死。",
    category: ["电影", "动作", "冒险"], tags: ["动作", "冒险", "4K"],
    year: 2025, rating: 8.6, duration: "02:03:25", coverImage: "31.webp", videoFile: "31.mp4",
  },
  {
    id: "video_032", title: "穿回九零当掌柜",
    description: "外卖小哥意外穿越回一九九二年，接手了一家快要倒闭的小卖部。凭借对未来的了解，他闹出了不少笑话，也找到了自己的归属。",
    category: ["短剧", "奇幻", "喜剧"], tags: ["穿越", "年代", "爽剧"],
    year: 2025, rating: 8.1, duration: "10:45", coverImage: "32.webp", videoFile: "32.mp4",
  },
  {
    id: "video_033", title: "乡村小学的一百天",
    description: "五位城市青年志愿者走进山村小学支教一百天，节目完整记录他们与孩子们从陌生到相依的过程。既有真人秀的轻松，也有纪录片的真实。",
    category: ["综艺", "纪录片", "真人秀", "人文"], tags: ["高分", "支教", "乡村", "治愈"],
    year: 2025, rating: 9.0, duration: "51:15", coverImage: "33.webp", videoFile: "33.mp4",
  },
  {
    id: "video_034", title: "全员替身",
    description: "一个不起眼的武替团队意外被卷入片场盗窃案，为了自证清白，他们只能亲自上阵追回失物。这是一部动作与笑料齐飞的喜剧。",
    category: ["电影", "喜剧", "动作"], tags: ["喜剧", "动作", "爆笑"],
    year: 2025, rating: 8.3, duration: "01:41:55", coverImage: "34.webp", videoFile: "/34.mp4",
  },
  {
    id: "video_035", title: "一碗面的温度",
    description: "从西北到岭南，从巷口小店到家庭厨房，镜头走进一间间面馆的后厨，讲述一碗面背后的手艺、乡愁与人情。",
    category: ["纪录片", "美食", "人文"], tags: ["美食", "人文", "烟火气"],
    year: 2025, rating: 8.7, duration: "36:30", coverImage: "35.webp", videoFile: "35.mp4",
  },
  {
    id: "video_036", title: "纸鹤迷案",
    description: "山城接连发生三起离奇纵火案，每个现场都留下一只纸折的白鹤。刑侦支队长与心理侧写师联手，在层层迷雾中逼近真相。",
    category: ["电视剧", "悬疑", "犯罪"], tags: ["悬疑", "刑侦", "烧脑"],
    year: 2025, rating: 8.8, duration: "46:55", coverImage: "36.webp", videoFile: "36.mp4",
  },
  {
    id: "video_037", title: "心动模拟程序",
    description: "程序员周一鸣开发了一款恋爱模拟游戏，却发现游戏里的虚拟角色和公司新来的同事一模一样。一场啼笑皆非的办公室恋情就此展开。",
    category: ["网络剧", "电视剧", "爱情", "喜剧"], tags: ["甜宠", "职场", "轻松"],
    year: 2025, rating: 8.2, duration: "35:20", coverImage: "37.webp", videoFile: "37.mp4",
  },
  {
    id: "video_038", title: "夜市掌勺人",
    description: "明星嘉宾在各地夜市租下小摊位，从备料、出摊到收档全部亲力亲为。在热气腾腾的烟火里，体验普通摊主的辛苦与快乐。",
    category: ["综艺", "美食", "真人秀"], tags: ["美食", "烟火气", "体验"],
    year: 2025, rating: 8.4, duration: "53:05", coverImage: "38.webp", videoFile: "38.mp4",
  },
  {
    id: "video_039", title: "潜入深蓝之境",
    description: "跟随科考团队搭乘载人潜水器下潜至数千米深的海底，揭开热液喷口与冷泉生态的神秘面纱，展现深海探测背后的科技力量。",
    category: ["纪录片", "科技", "自然"], tags: ["高分", "科技", "海洋", "4K"],
    year: 2025, rating: 9.1, duration: "50:40", coverImage: "39.webp", videoFile: "39.mp4",
  },
  {
    id: "video_040", title: "回乡的列车",
    description: "春运前夕，在外打拼多年的三兄妹各自踏上回乡的列车。一路上的意外与争执，让他们重新面对这个家庭多年来未曾说出口的心事。",
    category: ["电影", "家庭", "剧情"], tags: ["家庭", "温情", "催泪", "高分"],
    year: 2025, rating: 8.9, duration: "02:15:30", coverImage: "40.webp", videoFile: "40.mp4",
  },
  {
    id: "video_041", title: "毕业那天的雨",
    description: "毕业典礼那天突降大雨，四个即将各奔东西的室友被困在宿舍楼里。一场临时起意的告别会，让她们说出了四年里藏着的心里话。",
    category: ["微电影", "电影", "青春"], tags: ["青春", "校园", "友情"],
    year: 2025, rating: 8.5, duration: "00:19:45", coverImage: "41.webp", videoFile: "41.mp4",
  },
  {
    id: "video_042", title: "丝路商帮",
    description: "以明清时期西北商帮的兴衰为主线，采用剧情演绎与史料纪实交织的形式，展现古代商人跨越千里的经商之路与诚信之道。",
    category: ["电视剧", "纪录片", "历史"], tags: ["历史", "年代", "商战"],
    year: 2025, rating: 8.6, duration: "48:00", coverImage: "42.webp", videoFile: "42.mp4",
  },
  {
    id: "video_043", title: "机械猫与星星",
    description: "在一座被废弃的太空站里，一只老旧的维修机械猫捡到了一颗会说话的小星星。为了送星星回家，它开始了一场横跨银河的冒险。",
    category: ["动画", "电影", "科幻", "家庭"], tags: ["动画", "合家欢", "治愈"],
    year: 2025, rating: 8.7, duration: "01:29:40", coverImage: "43.webp", videoFile: "43.mp4",
  },
  {
    id: "video_044", title: "追光少年营",
    description: "三十位怀揣梦想的少年走进封闭训练营，在舞蹈、声乐和创作中不断突破自我。节目关注的不只是舞台，更是他们成长中的迷茫与坚持。",
    category: ["综艺", "真人秀", "青春"], tags: ["青春", "选秀", "热血"],
    year: 2025, rating: 8.1, duration: "59:30", coverImage: "44.webp", videoFile: "44.mp4",
  },
  {
    id: "video_045", title: "雪豹的冬天",
    description: "摄影团队在高原上蹲守了三百多天，首次完整记录一只雌性雪豹带着两只幼崽度过严冬的全过程。",
    category: ["纪录片", "自然"], tags: ["高分", "自然", "4K", "野生动物"],
    year: 2025, rating: 9.3, duration: "52:10", coverImage: "45.webp", videoFile: "45.mp4",
  },
  {
    id: "video_046", title: "第四十九天",
    description: "一名富商失踪四十九天后，他的遗嘱突然出现在一家律师事务所。家族成员各怀心思，一场围绕遗产的暗战悄然展开。",
    category: ["电影", "犯罪", "悬疑"], tags: ["悬疑", "反转", "豪门"],
    year: 2025, rating: 8.5, duration: "02:06:15", coverImage: "46.webp", videoFile: "46.mp4",
  },
  {
    id: "video_047", title: "婆婆的账本",
    description: "新婚儿媳偶然发现婆婆有一本记了三十年的家庭账本，里面藏着这个家不为人知的往事。这是一部轻松又温情的家庭短剧。",
    category: ["短剧", "家庭", "喜剧"], tags: ["家庭", "温情", "轻松"],
    year: 2025, rating: 8.3, duration: "09:20", coverImage: "47.webp", videoFile: "/47.mp4",
  },
  {
    id: "video_048", title: "陈记面馆",
    description: "在城中老街经营面馆的一家人，面对连锁餐饮的冲击和儿女各自的打算，努力守住父辈留下的招牌和那一碗熟悉的味道。",
    category: ["电视剧", "美食", "家庭"], tags: ["美食", "家庭", "市井"],
    year: 2025, rating: 8.8, duration: "44:30", coverImage: "48.webp", videoFile: "48.mp4",
  },
  {
    id: "video_049", title: "城市声音计划",
    description: "音乐人走街串巷，收集城市中真实的声音，并把它们改编成一首首原创歌曲。每一期节目，都是一座城市独一无二的声音名片。",
    category: ["综艺", "音乐", "人文"], tags: ["音乐", "原创", "城市"],
    year: 2025, rating: 8.2, duration: "41:25", coverImage: "49.webp", videoFile: "49.mp4",
  },
  {
    id: "video_050", title: "时间邮局",
    description: "小镇上有一家能把信寄往过去的邮局，失意的青年顾远给十年前的自己写了一封信。然而每改变一次过去，现在的爱人就离他更远一步。",
    category: ["电影", "奇幻", "爱情"], tags: ["爱情", "奇幻", "催泪", "高分"],
    year: 2025, rating: 9.0, duration: "01:55:00", coverImage: "50.webp", videoFile: "50.mp4",
  },
];
