/**
 * Static information pages served at /info/{pageType} (spec §2, §9).
 *
 * Contact details (business handle, e-mail) are deliberately absent: the contact
 * page component adds them from configuration.
 */

import type { InfoPageType } from "./info-page-types";

export { INFO_PAGE_TYPES, isInfoPageType, type InfoPageType } from "./info-page-types";

export interface InfoSection {
  heading: string;
  paragraphs: readonly string[];
  items?: readonly string[];
  /** The section's anchor, for links to it from other pages (`/info/help#tv`). */
  id?: string;
  /** A path on the site shown as the site's full address (the page adds its origin), e.g. /tvbox.json. */
  address?: string;
  /** Screenshots of the site's own pages, in public/ (width and height keep the layout from moving). */
  figures?: readonly InfoFigure[];
  /** Links to other pages of the site, after the text. */
  links?: readonly { to: string; label: string }[];
}

export interface InfoFigure {
  src: string;
  alt: string;
  caption: string;
  width: number;
  height: number;
}

/** Where the help page explains 投屏 and TV boxes (linked from 关于我们 and 使用指南). */
export const TV_HELP_PATH = "/info/help#tv";

export interface InfoPage {
  type: InfoPageType;
  /** Used for <title> and the page heading, e.g. 关于我们. */
  title: string;
  /** Meta description, 50–120 characters. */
  summary: string;
  sections: readonly InfoSection[];
}

/** Player keyboard shortcuts as described on the help and guide pages. */
const KEYBOARD_SHORTCUTS: readonly string[] = [
  "空格键 / K：播放或暂停",
  "← / →：快退 / 快进 10 秒",
  "↑ / ↓：调节音量",
  "F：进入或退出全屏",
  "M：静音或取消静音",
  "P / N：剧集的上一集 / 下一集",
];

const RESPONSE_TIMES: readonly string[] = [
  "一般咨询：24小时内回复",
  "紧急问题2小时内处理（如大面积无法播放、账号异常等）",
  "功能建议与内容反馈：3个工作日内给出答复",
  "复杂问题（需要技术排查或多方核实）：7个工作日内处理完毕",
];

const BUSINESS_HOURS = "客服工作时间为工作日 9:00–18:00，非工作时间提交的问题将在下一个工作日优先处理。";

export const INFO_PAGES: Record<InfoPageType, InfoPage> = {
  about: {
    type: "about",
    title: "关于我们",
    summary: "影视站是一个免费的中文在线视频平台，汇集电影、电视剧、综艺和纪录片等精选内容，无需注册即可浏览、搜索和观看，致力于为用户提供简单流畅的观影体验。",
    sections: [
      {
        heading: "平台简介",
        paragraphs: [
          "影视站是一个面向大众的免费中文视频平台，收录了电影、电视剧、综艺节目和纪录片等多种类型的精选作品。",
          "我们相信好的作品值得被更多人看到。访客无需注册、无需付费，打开网页即可浏览、搜索并在线播放。",
        ],
      },
      {
        heading: "我们的使命",
        paragraphs: ["让每一位用户都能轻松找到喜欢的内容，在碎片化的时间里享受一段完整而愉快的观影时光。"],
      },
      {
        heading: "平台特色",
        paragraphs: ["我们在内容与体验上持续打磨，力求做到简单、清晰、好用。"],
        items: [
          "完全免费：所有作品均可免费观看，无需购买会员",
          "分类清晰：按电影、电视剧、综艺、纪录片等类别整理，并支持按年份与评分筛选",
          "高清流畅：自研播放器支持全屏、音量调节与进度拖动",
          "多端适配：电脑、平板和手机浏览器均可正常访问",
          "大屏观看：手机可投屏到电视，电视盒子用一个地址即可添加全站",
          "精选内容：优先收录口碑良好、评分较高的作品",
        ],
        links: [{ to: TV_HELP_PATH, label: "如何在电视上看" }],
      },
      {
        heading: "发展历程",
        paragraphs: [
          "影视站于2025年正式上线，从最初的几十部作品开始，逐步完善了分类浏览、站内搜索、高分推荐等功能。",
          "未来我们将继续丰富片库，优化播放体验，并根据用户反馈不断改进产品。",
        ],
      },
      {
        heading: "联系我们",
        paragraphs: ["如果您在使用中遇到任何问题，或有合作意向，欢迎访问“联系我们”页面，我们会在24小时内回复。"],
      },
    ],
  },

  contact: {
    type: "contact",
    title: "联系我们",
    summary: "影视站联系我们页面：了解客服工作时间、问题处理时效与商务合作方式。一般咨询24小时内回复，紧急问题2小时内处理，欢迎随时与我们取得联系。",
    sections: [
      {
        heading: "联系方式",
        paragraphs: [
          "无论是使用中遇到的问题、内容方面的建议，还是商务合作洽谈，请通过页面下方的联系方式与我们联系。",
          "为了更快地解决问题，建议在留言中注明您使用的设备、浏览器版本以及问题出现的具体页面。",
        ],
      },
      {
        heading: "工作时间",
        paragraphs: [BUSINESS_HOURS, "法定节假日期间，紧急问题仍有专人值守处理。"],
      },
      {
        heading: "响应时效",
        paragraphs: ["我们承诺按照以下时效处理您的来信："],
        items: RESPONSE_TIMES,
      },
      {
        heading: "商务合作",
        paragraphs: [
          "我们欢迎内容版权方、品牌方及各类媒体机构与我们开展合作，包括内容授权、联合推广和品牌宣传等。",
          "商务合作请通过页面下方的商务联系方式与我们沟通，并简要说明合作内容与期望。",
        ],
      },
    ],
  },

  help: {
    type: "help",
    title: "帮助中心",
    summary: "影视站帮助中心：解答播放卡顿、搜索不到内容、账号注册登录、收藏功能以及播放器快捷键等常见问题，帮助您快速解决观影过程中遇到的各种疑问。",
    sections: [
      {
        heading: "观看与播放",
        paragraphs: [
          "本站所有视频均可免费观看，无需登录。进入视频详情页后，播放器会自动开始播放。",
          "如果播放卡顿，建议检查网络状况；流畅观看高清视频的建议带宽 5 Mbps 及以上。也可以尝试刷新页面或更换浏览器。",
          "若某个视频暂时无法播放，播放器会自动为您切换到其他推荐视频。",
        ],
      },
      {
        heading: "播放器快捷键",
        paragraphs: ["在播放页面中，您可以使用以下键盘快捷键操作播放器："],
        items: KEYBOARD_SHORTCUTS,
      },
      {
        heading: "搜索与分类",
        paragraphs: [
          "在页面顶部的搜索框中输入片名、类型或标签关键词，按回车即可搜索。搜索结果支持按分类筛选，并可按相关度、评分、年份或标题排序。",
          "如果没有找到想要的内容，请检查关键词是否有误，或尝试使用更简单、不同的关键词。",
        ],
      },
      {
        heading: "账号与收藏",
        paragraphs: [
          "注册账号只需邮箱和密码，密码长度至少6位。登录后可以进入个人中心查看账号信息。",
          "收藏功能建议登录后使用：未登录时，收藏记录仅保存在当前浏览器中，清除浏览器数据后可能丢失；登录后，收藏将保存在您的账号中，更换设备也不会丢失。",
        ],
      },
      {
        id: "tv",
        heading: "在电视上看：投屏与电视盒子",
        paragraphs: [
          "方法一：手机投屏。在播放页点击画面，右上角出现“投屏”按钮（只在支持投屏的浏览器中显示：安卓手机上的 Chrome 可投到 Chromecast 及兼容的电视，iPhone、iPad 和 Mac 上的 Safari 可通过 AirPlay 投到 Apple TV 及支持 AirPlay 的电视）。点击后选择电视，视频会从当前进度开始在电视上播放，手机可以继续用来暂停和调节进度。",
          "方法二：电视盒子一次添加全站。大多数国产电视和盒子不支持浏览器投屏，可以安装 TVBox、影视仓等应用，在“设置 → 配置地址”（有的应用叫“数据源”或“订阅”）中输入下面这个地址并确认，即可在电视上浏览、搜索和播放本站的全部作品：",
        ],
        address: "/tvbox.json",
        figures: [
          {
            src: "/help/cast-button.jpg",
            alt: "手机上的播放器，右上角是投屏按钮",
            caption: "播放器右上角的投屏按钮",
            width: 358,
            height: 202,
          },
          {
            src: "/help/tvbox-json.jpg",
            alt: "在浏览器中打开配置地址看到的内容，其中列出了本站的名称和接口地址",
            caption: "在浏览器中打开这个地址，能看到本站名称和接口地址，说明地址无误",
            width: 390,
            height: 220,
          },
        ],
      },
      {
        heading: "仍未解决？",
        paragraphs: ["如果以上内容没能解决您的问题，欢迎前往“意见反馈”页面提交问题，或通过“联系我们”页面联系客服，我们会在24小时内回复。"],
      },
    ],
  },

  guide: {
    type: "guide",
    title: "使用指南",
    summary: "影视站使用指南：从浏览分类、搜索作品、筛选排序，到播放器操作和键盘快捷键，一步步带您了解本站的主要功能，让观影更加轻松便捷。",
    sections: [
      {
        heading: "第一步：浏览内容",
        paragraphs: ["首页展示热门推荐、最新更新和高分佳作。点击顶部导航中的电影、电视剧、综艺或纪录片，即可进入对应的分类页面。"],
      },
      {
        heading: "第二步：筛选与排序",
        paragraphs: ["在分类页面中，您可以根据需要组合使用以下功能："],
        items: [
          "切换网格视图或列表视图",
          "按上映年份筛选",
          "按最低评分筛选（9分以上、8分以上、7分以上）",
          "按最新、评分、标题或时长排序",
          "每页显示12部作品，可通过页码翻页",
        ],
      },
      {
        heading: "第三步：搜索作品",
        paragraphs: ["在顶部搜索框输入关键词后按回车，系统会在片名、简介、标签和分类中查找匹配的作品。"],
      },
      {
        heading: "第四步：观看视频",
        paragraphs: [
          "点击任意作品卡片进入详情页，播放器将自动播放。将鼠标移到画面上即可显示控制栏，可调节进度、音量或进入全屏。",
          "为获得流畅的高清观看体验，建议带宽 5 Mbps 及以上，并使用最新版本的主流浏览器。",
        ],
        items: KEYBOARD_SHORTCUTS,
      },
      {
        heading: "第五步：分享与收藏",
        paragraphs: ["在详情页点击分享按钮，可以通过系统分享功能发送给好友；若浏览器不支持，将自动复制链接到剪贴板。点击收藏按钮可以标记喜欢的作品。"],
      },
      {
        heading: "第六步：在电视上看",
        paragraphs: ["想在客厅的大屏幕上看？可以用手机把正在播放的视频投屏到电视，也可以在电视盒子上通过一个地址添加全站。"],
        links: [{ to: TV_HELP_PATH, label: "投屏与电视盒子的详细步骤" }],
      },
    ],
  },

  privacy: {
    type: "privacy",
    title: "隐私政策",
    summary: "影视站隐私政策说明我们在您使用本站服务时收集哪些信息、如何使用和保护这些信息，以及您享有的相关权利。我们重视并尊重每一位用户的个人隐私。",
    sections: [
      {
        heading: "引言",
        paragraphs: [
          "影视站（以下简称“本站”）非常重视用户的个人信息与隐私保护。本政策适用于您通过网页访问和使用本站的全部服务。",
          "在使用本站服务前，请您仔细阅读并理解本政策。您继续使用本站，即表示您同意本政策的内容。",
        ],
      },
      {
        heading: "我们收集的信息",
        paragraphs: ["浏览和观看视频无需注册，我们仅在必要范围内收集以下信息："],
        items: [
          "注册信息：您注册账号时提供的邮箱地址与密码（密码经加密处理，我们无法查看明文）",
          "账号信息：账号的创建时间等基本信息",
          "设备与日志信息：浏览器类型、访问时间等用于保障服务安全与稳定的技术信息",
          "本地存储：部分偏好设置和收藏记录可能保存在您的浏览器本地",
        ],
      },
      {
        heading: "信息的使用",
        paragraphs: [
          "我们收集的信息仅用于提供账号登录、个人中心等功能，改进服务质量以及保障账号和系统安全。",
          "未经您的同意，我们不会将您的个人信息出售、出租或提供给任何第三方，法律法规另有规定的除外。",
        ],
      },
      {
        heading: "信息的存储与保护",
        paragraphs: [
          "我们采取加密传输、访问控制等合理的安全措施保护您的信息，防止数据遭到未经授权的访问、泄露或篡改。",
          "您的个人信息将在实现本政策所述目的所必需的期限内保存，超出期限后将被删除或匿名化处理。",
        ],
      },
      {
        heading: "您的权利",
        paragraphs: ["您有权查询、更正或删除您的个人信息，也可以申请注销账号。如需行使上述权利，请通过“联系我们”页面与我们联系，我们将在7个工作日内处理。"],
      },
      {
        heading: "政策更新",
        paragraphs: ["我们可能会根据业务调整或法律法规的变化适时更新本政策，更新后的内容将在本页面公布并即时生效。"],
      },
    ],
  },

  terms: {
    type: "terms",
    title: "服务条款",
    summary: "影视站服务条款规定了您与本站之间关于使用视频浏览、搜索、播放及账号等服务的权利和义务。请在使用本站服务前仔细阅读并同意本条款的全部内容。",
    sections: [
      {
        heading: "条款的接受",
        paragraphs: ["欢迎使用影视站。您访问或使用本站的任何服务，即表示您已阅读、理解并同意遵守本服务条款。若您不同意本条款，请停止使用本站服务。"],
      },
      {
        heading: "服务内容",
        paragraphs: [
          "本站向用户免费提供视频浏览、搜索、在线播放及分享等服务。注册账号为可选项，注册后可使用个人中心等功能。",
          "本站有权根据运营需要调整、暂停或终止部分服务，并将尽可能提前公告。",
        ],
      },
      {
        heading: "账号注册与使用",
        paragraphs: ["如您选择注册账号，请遵守以下约定："],
        items: [
          "使用真实有效的邮箱地址注册，并妥善保管账号和密码",
          "账号仅限本人使用，不得转让、出借或出售",
          "因您保管不善导致的账号被盗或信息泄露，责任由您自行承担",
          "发现账号异常时，请及时通过“联系我们”页面告知本站",
        ],
      },
      {
        heading: "用户行为规范",
        paragraphs: ["您在使用本站服务时，不得从事以下行为："],
        items: [
          "利用技术手段批量下载、抓取或盗链本站内容",
          "干扰或破坏本站服务器与网络的正常运行",
          "传播违法违规信息或侵害他人合法权益",
          "将本站内容用于任何商业用途",
        ],
      },
      {
        heading: "条款的修改",
        paragraphs: ["本站有权在必要时修改本服务条款，修改后的条款将在本页面公布。如您在条款修改后继续使用本站服务，即视为接受修改后的条款。"],
      },
    ],
  },

  copyright: {
    type: "copyright",
    title: "版权声明",
    summary: "影视站版权声明：说明本站内容的版权归属、使用限制以及权利人发现侵权内容时的投诉处理流程。我们尊重知识产权，收到有效通知后将及时处理。",
    sections: [
      {
        heading: "版权归属",
        paragraphs: ["本站所展示的影视作品、图片、文字等内容，其版权归原作者或相关权利人所有。本站的页面设计、标识及原创文字内容的版权归影视站所有。"],
      },
      {
        heading: "使用限制",
        paragraphs: ["未经权利人书面许可，任何单位或个人不得复制、转载、修改、传播或以其他方式使用本站内容，个人学习与欣赏等合理使用的情形除外。"],
      },
      {
        heading: "侵权投诉",
        paragraphs: ["如果您认为本站内容侵犯了您的合法权益，请通过“联系我们”页面提交书面通知，并提供以下材料："],
        items: [
          "权利人的身份证明或主体资格证明",
          "权属证明材料，如著作权登记证书或授权文件",
          "涉嫌侵权内容的名称及在本站中的具体位置",
          "要求删除或断开链接的明确声明",
        ],
      },
      {
        heading: "处理流程",
        paragraphs: [
          "本站在收到符合要求的通知后将在24小时内回复确认，并在核实后及时删除相关内容或断开链接；需要进一步核实的复杂情况，将在7个工作日内处理完毕并告知处理结果。",
        ],
      },
    ],
  },

  disclaimer: {
    type: "disclaimer",
    title: "免责声明",
    summary: "影视站免责声明：说明本站在内容信息准确性、服务中断、第三方链接及用户自行行为等方面的责任范围。使用本站服务前，请您仔细阅读本声明的全部内容。",
    sections: [
      {
        heading: "内容信息",
        paragraphs: ["本站对作品的简介、评分、分类等信息力求准确，但不对其完整性和准确性作出任何保证。作品评分仅供参考，不代表本站立场。"],
      },
      {
        heading: "服务可用性",
        paragraphs: [
          "本站将尽力保证服务的稳定运行，但因网络故障、设备维护、不可抗力等原因造成的服务中断或播放异常，本站不承担相应责任。",
          "观看效果受网络环境和设备性能影响，建议带宽 5 Mbps 及以上以获得流畅的高清体验。",
        ],
      },
      {
        heading: "第三方服务",
        paragraphs: ["本站的账号服务等功能可能依赖第三方技术服务提供方。对于第三方服务本身造成的问题，本站将积极协助处理，但不承担超出自身范围的责任。"],
      },
      {
        heading: "用户行为",
        paragraphs: ["用户因违反服务条款或相关法律法规而产生的一切后果，由用户自行承担。用户通过分享功能传播链接时，应确保用途合法。"],
      },
      {
        heading: "声明的解释",
        paragraphs: ["本声明的最终解释权在法律允许的范围内归影视站所有。本声明未涉及的问题，参照国家有关法律法规执行。"],
      },
    ],
  },

  feedback: {
    type: "feedback",
    title: "意见反馈",
    summary: "影视站意见反馈：欢迎提交播放问题、内容建议和功能改进意见。一般问题24小时内回复，建议类反馈3个工作日内答复，复杂问题7个工作日内处理完毕。",
    sections: [
      {
        heading: "我们重视您的声音",
        paragraphs: ["影视站的每一次改进都离不开用户的建议。无论是发现了问题，还是希望增加某部作品或某项功能，都欢迎告诉我们。"],
      },
      {
        heading: "反馈类型",
        paragraphs: ["您可以就以下方面向我们反馈："],
        items: [
          "播放问题：无法播放、卡顿、画面或声音异常",
          "内容建议：希望收录的作品、简介或分类信息有误",
          "功能建议：搜索、筛选、播放器等功能的改进意见",
          "账号问题：注册、登录或个人中心相关的问题",
          "其他问题：版权投诉或任何您想告诉我们的事情",
        ],
      },
      {
        heading: "如何反馈",
        paragraphs: ["请通过“联系我们”页面中的联系方式提交反馈，并尽量附上问题页面、设备型号、浏览器版本和截图，以便我们快速定位问题。"],
      },
      {
        heading: "处理时效",
        paragraphs: ["我们会认真阅读每一条反馈，并按照以下时效处理："],
        items: RESPONSE_TIMES,
      },
      {
        heading: "工作时间",
        paragraphs: [BUSINESS_HOURS],
      },
    ],
  },
};
