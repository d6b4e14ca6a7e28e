// Chinese and English strings for the page's own chrome. Seat names, zone names and status words come
// from the server (the engine's accessibility model), so they are never translated twice.

const strings = {
  zh: {
    skip: '跳到主要内容', appTitle: 'SeatKit 选座', shows: '场次', otherTimes: '其他场次', seatMap: '座位图', changeShow: '换场次', categoryName: c => ({ standard: '普通', vip: 'VIP', couple: '情侣座', lower: '下层看台', upper: '上层看台', premium: '优选', floor: '内场' })[c] ?? c, yourSeats: '我的座位',
    prices: '票价', bestLabel: '推荐座位数', bestButton: '推荐', wheelchair: '我需要轮椅位', total: '合计',
    holdLeft: '保留剩余', confirm: '确认购买', payButton: '去支付', extend: '延长保留', release: '释放座位', listMode: '列表模式',
    mapMode: '地图模式', zoomIn: '放大', zoomOut: '缩小', free: n => `${n}个空座`, from: p => `${p}起`,
    channelPage: '合作渠道专属座位（其余座位不在本页出售）', channelBadge: '渠道专属',
    mapHelp: '方向键在座位间移动（左右沿排，上下换排），回车或空格选座；拖动空白处平移，滚轮或双指缩放，按住鼠标划过座位可一次选多个。',
    held: seats => `已为您保留：${seats}`, released: '座位已释放', tableTaken: table => `${table}已有座位售出，不能整桌选择`, expired: '保留已过期，座位已释放',
    taken: seats => `${seats}已被他人选走，请另选`, confirmed: (ref, seats) => `购买成功！订单号 ${ref}：${seats}`,
    nothingTogether: n => `没有${n}个相邻的空座`, failed: d => `操作失败：${d}`, tooFast: '操作太频繁，请稍后再试',
    live: '实时', reconnecting: '正在重新连接…', resynced: '座位图已更新', justTaken: s => `${s}刚刚被选走`,
    availableAgain: s => `${s}现在可选`, noShows: '暂无场次', seatsTaken: '已售完', started: '已开场，停止售票', salesClosed: '本场已开场，停止售票。请选择其他场次。', soldOutShow: '本场已售完。请在上方选择其他场次，或稍后再来看看是否有退票。', salesPaused: '本场暂停售票，请稍后再试或选择其他场次。', cancelled: '本场已取消，停止售票。', pricesChanged: '票价已更新', cancelledShort: '已取消', pausedShort: '暂停售票',
    waitlistTitle: '候补购票', waitlistHelp: '有人退票时，座位按候补顺序优先留给您，保留期内支付即可购得。', waitlistPrice: '票档', waitlistCount: '张数',
    waitlistJoin: '加入候补', waitlistLeave: '取消候补', waitlistPlace: (n, count, what) => `候补中：第 ${n} 位 · ${count} 张${what}`,
    waitlistAny: '', waitlistOffered: (seats, until) => `候补成功！${seats} 已为您保留至 ${until}，请尽快支付。`,
    waitlistBought: '候补已购票成功。', waitlistLapsed: '候补保留已过期，座位已让给下一位。', waitlistLeft: '已取消候补。',
    waitlistJoined: n => `已加入候补，您排在第 ${n} 位。`,
    waitlistProvider: '预付方式', waitlistHelpPrepaid: '有人退票时，座位按候补顺序优先留给您，并用您的预付款自动购票。', waitlistPrepayNote: '候补需先预付票款（按所选票档最高价），有票自动出票；候补未成功全额退款。',
    waitlistPayWhat: amount => `请预付 ¥${amount}，支付后即开始候补`, waitlistScan: '请用手机扫码支付', waitlistPayGo: '去支付',
    waitlistPrepaid: n => `预付成功，您排在第 ${n} 位，有票将自动为您出票。`, waitlistPaidPlace: amount => `已预付 ¥${amount}，无票全额退款`,
    waitlistRefunded: amount => `已退款 ¥${amount}，原路退回`, waitlistOrder: '查看电子票', waitlistTestPay: '用测试款支付（演示）',
    waitlistBoughtSeats: seats => `候补成功！已为您购得 ${seats}。`, waitlistClosed: why => `候补已结束：${why}`,
    mapLabel: name => `${name}座位图`, legend: '图例', extended: '保留已延长', loading: '加载中…',
    overview: '缩略图', chosenSeats: '已选座位', remove: seat => `移除${seat}`,
    standingAreas: '站席与包厢', fewerPlaces: area => `减少${area}人数`, morePlaces: area => `增加${area}人数`, placesLeft: n => `余${n}位`,
    placesWanted: (area, n) => `${area}：${n}人`, wholeArea: () => '整间预订', partyArea: (min, max) => `${min}–${max}人一起`, areaTaken: '已被预订',
    films: '影片与演出', poster: title => `${title}海报`, minutes: n => `${n}分钟`, timesOf: title => `${title}的场次`,
    receipt: (ref, title, when, seats, total) => `购买成功！订单号 ${ref}：${title}，${when}，${seats}，合计 ${total}`,
    viewOrder: '查看订单、改签或退票',
    zoomGroup: '缩放',
    offlineState: '离线', offlineNow: '网络已断开：现在选座不会被锁定，恢复联网后再选。', backOnline: '网络已恢复，座位图已更新。',
    bestView: '最佳观影区', restrictedView: '视线受限',
    purchased: '购买成功！', moreShows: '继续看其他场次', orderLine: ref => `订单号 ${ref}`, addToCalendar: '加入日历',
    seatView: (seat, words, angle) => `从${seat}看银幕：${words}（视角 ${angle}°）`,
    ticketAlt: seat => `${seat} 座的电子票二维码，入场时出示`,
    offline: '无法连接服务器，请检查网络后重试', busy: '系统繁忙，请稍后再试', holdGone: '保留已失效，请重新选座',
    alreadyExtended: '保留只能延长一次', notFound: '找不到该场次或座位', tooMany: n => `每单最多${n}个座位`,
    closedOnMap: '停止售票', mapTools: '地图工具',
    queueRegistrationClosedTitle: '抽签登记已截止', queueLane: lane => `优先通道：${lane}`, queuePassRefused: '优先购票码无效，您在普通队列中排队。',
    queuePassUsed: '此优先购票码已被使用（每个码只能排队一次）。', queueIdentityTitle: '实名排队', queueIdentityWhy: '本场为实名制演出：每个证件只能排队一次，轮到您时所购门票须包含此证件的观演人。',
    queueIdType: '证件类型', queueIdNumber: '证件号码', queueJoinWithId: '排队', queueIdNeeded: '请填写证件号码',
    queueIdInLine: '该证件已在本场队列中（每个证件只能排队一次），请回到原来的页面继续等待。', queueProving: '正在验证排队资格，请稍候…',
    queueRegisteredTitle: '已登记抽签', queueRegistered: when => `抽签将于 ${when} 进行。可以关闭本页，届时回来查看结果。`, queueDrawIn: '距抽签还有',
    queueWonTitle: '恭喜中签！', queueSlotIn: '距您的购票时段还有', queueSlot: when => `您的购票时段从 ${when} 开始，届时本页会自动进入选座（可先关闭，届时回来）。`,
    queueNotDrawnTitle: '未中签', queueNotDrawn: when => `很遗憾未中签。开售后（${when} 起）如有余票，可重新排队购买。`,
    queueRegistrationClosed: when => `抽签登记已截止；开售后（${when} 起）可排队购买剩余座位。`,
    queueTitle: '排队购票中', queueEarlyTitle: '即将开售', queueAdmittedTitle: '轮到您了！', queueSoldOutTitle: '已售罄',
    queueLeftTitle: '排队位置已失效', queuePosition: '您的排位', queuePositionAtOpening: '开售时随机排位',
    queueAhead: n => (n === 0 ? '下一位就是您' : `前面还有 ${n} 人`), queueEta: s => (s < 60 ? '预计不到1分钟' : `预计等待约 ${Math.ceil(s / 60)} 分钟`),
    queueOpensIn: '距开售还有',
    queueShuffled: '开售前到达的观众将在开售时随机排序，提前到达或刷新不会更靠前。',
    queueKeepOpen: '请保持本页打开，无需刷新；轮到您时将自动进入选座。', queueAdmitted: '轮到您了，正在打开选座图…', queueAdmittedFor: (minutes, until) => `轮到您了！请在 ${minutes} 分钟内（${until} 前）选座锁定，超时名额将让给下一位。正在打开选座图…`,
    queueOff: '排队已结束，正在进入选座…', queueSoldOut: '很遗憾，本场座位已全部售出。',
    queueLeft: '页面长时间未响应，您的排队位置已失效。', queueRejoin: '重新排队', queueOthers: '看看其他场次',
    queueNotYet: when => `排队将于 ${when} 开始，请届时再来。`, queueTooMany: '此网络下的排队名额已满，请稍后再试。',
    queueNow: (n, ahead) => `您现在排第 ${n} 位，前面还有 ${ahead} 人`, queueProgress: '排队进度', queueAgain: '入场资格已失效，请重新排队', admissionInUse: '您已锁定座位，请先完成支付或取消后再选', admissionSpent: '本次排队已购票，如需再买请重新排队',
  },
  en: {
    skip: 'Skip to content', appTitle: 'SeatKit seats', shows: 'Shows', otherTimes: 'Other times', seatMap: 'seat map', changeShow: 'Times', categoryName: c => ({ standard: 'Standard', vip: 'VIP', couple: 'Couple seats', lower: 'Lower tier', upper: 'Upper tier', premium: 'Premium', floor: 'Floor' })[c] ?? `${c[0].toUpperCase()}${c.slice(1)}`, yourSeats: 'Your seats',
    prices: 'Prices', bestLabel: 'Best seats for', bestButton: 'Pick', wheelchair: 'I need a wheelchair space', total: 'Total',
    holdLeft: 'Held for', confirm: 'Confirm purchase', payButton: 'Pay', extend: 'Extend hold', release: 'Release seats', listMode: 'List mode',
    mapMode: 'Map mode', zoomIn: 'Zoom in', zoomOut: 'Zoom out', free: n => `${n} free`, from: p => `from ${p}`,
    channelPage: "A partner's allocation (the hall's other seats are not sold here)", channelBadge: 'Partner',
    mapHelp: 'Arrow keys move between seats (left and right along a row, up and down between rows); Enter or Space selects. Drag empty space to pan, wheel or pinch to zoom, drag across seats with the mouse to pick several.',
    held: seats => `Holding for you: ${seats}`, released: 'Seats released', tableTaken: table => `${table} is sold as a whole and some of its seats are taken`, expired: 'Your hold expired; the seats were released',
    taken: seats => `${seats}: someone else was faster. Please pick another seat`, confirmed: (ref, seats) => `Purchased! Order ${ref}: ${seats}`,
    nothingTogether: n => `No ${n} free seats side by side`, failed: d => `That did not work: ${d}`, tooFast: 'Too many requests; try again in a moment',
    live: 'Live', reconnecting: 'Reconnecting…', resynced: 'Seat map updated', justTaken: s => `${s} was just taken`,
    availableAgain: s => `${s} is available again`, noShows: 'No shows yet', seatsTaken: 'Sold out', started: 'Started: sales closed', salesClosed: 'This show has started and sales are closed. Please choose another show time.', soldOutShow: 'This show is sold out. Choose another time above, or look again later for returned seats.', salesPaused: 'Sales for this show are paused. Try again shortly or choose another show time.', cancelled: 'This show has been cancelled; nothing more is sold.', pricesChanged: 'Prices have changed', cancelledShort: 'Cancelled', pausedShort: 'Sales paused',
    waitlistTitle: 'Waitlist for returned seats', waitlistHelp: 'Seats given back go to the waitlist in order, before anyone else: pay while they are held for you.',
    waitlistPrice: 'Price', waitlistCount: 'Tickets', waitlistJoin: 'Join the waitlist', waitlistLeave: 'Leave the waitlist',
    waitlistPlace: (n, count, what) => `On the waitlist: number ${n} · ${count} ticket${count === 1 ? '' : 's'}${what}`,
    waitlistAny: '', waitlistOffered: (seats, until) => `Seats for you from the waitlist: ${seats}, held until ${until}. Please pay now.`,
    waitlistBought: 'Bought from the waitlist.', waitlistLapsed: 'The seats held for you have lapsed and gone to the next in line.', waitlistLeft: 'You have left the waitlist.',
    waitlistJoined: n => `You are on the waitlist: number ${n}.`,
    waitlistProvider: 'Prepay with', waitlistHelpPrepaid: 'Seats given back go to the waitlist in order, before anyone else, and are bought for you with your prepayment.', waitlistPrepayNote: 'The waitlist is prepaid (the dearest price asked for): returned seats are bought for you at once; all of it comes back if none do.',
    waitlistPayWhat: amount => `Prepay ¥${amount} to start waiting`, waitlistScan: 'Scan with your phone to pay', waitlistPayGo: 'Pay now',
    waitlistPrepaid: n => `Prepaid: you are number ${n}, and returned seats will be bought for you.`, waitlistPaidPlace: amount => `¥${amount} prepaid, all back if no seats come`,
    waitlistRefunded: amount => `¥${amount} refunded the way you paid`, waitlistOrder: 'See your e-tickets', waitlistTestPay: 'Pay with test money (demo)',
    waitlistBoughtSeats: seats => `Bought from the waitlist: ${seats}.`, waitlistClosed: why => `The waitlist has ended: ${why}`,
    mapLabel: name => `Seat map, ${name}`, legend: 'Legend', extended: 'Hold extended', loading: 'Loading…',
    overview: 'Overview', chosenSeats: 'Chosen seats', remove: seat => `Remove ${seat}`,
    standingAreas: 'Standing and boxes', fewerPlaces: area => `Fewer places in ${area}`, morePlaces: area => `More places in ${area}`,
    placesLeft: n => `${n} left`, placesWanted: (area, n) => `${area}: ${n}`, wholeArea: () => 'booked whole', partyArea: (min, max) => `one party of ${min}–${max}`,
    areaTaken: 'taken',
    films: 'Films and events', poster: title => `Poster: ${title}`, minutes: n => `${n} min`, timesOf: title => `Show times: ${title}`,
    receipt: (ref, title, when, seats, total) => `Purchased! Order ${ref}: ${title}, ${when}, ${seats}, total ${total}`,
    viewOrder: 'View my order, change or refund',
    zoomGroup: 'Zoom',
    offlineState: 'Offline', offlineNow: 'You are offline: a seat you tap now cannot be held. Pick again once you are back online.', backOnline: 'Back online; the map is up to date.',
    bestView: 'best view', restrictedView: 'restricted view',
    purchased: 'Purchased!', moreShows: 'More shows', orderLine: ref => `Order ${ref}`, addToCalendar: 'Add to calendar',
    seatView: (seat, words, angle) => `From ${seat}: ${words} (a ${angle}° view)`,
    ticketAlt: seat => `Ticket QR code for seat ${seat}: show it at the door`,
    offline: 'Cannot reach the server. Check your connection and try again', busy: 'The box office is busy; try again in a moment',
    holdGone: 'Your hold has ended; please pick your seats again', alreadyExtended: 'A hold can be extended only once',
    notFound: 'That show or seat no longer exists', tooMany: n => `At most ${n} seats per order`,
    closedOnMap: 'Sales closed', mapTools: 'Map tools',
    queueRegistrationClosedTitle: 'Registration has closed', queueLane: lane => `Priority lane: ${lane}`, queuePassRefused: 'The priority pass was not accepted: you are in the public line.',
    queuePassUsed: 'This priority pass has been used already (each joins the line once).', queueIdentityTitle: 'Queue with your ID', queueIdentityWhy: 'This show sells by real name: each ID queues once, and when it is your turn the tickets must include this ID.',
    queueIdType: 'ID type', queueIdNumber: 'ID number', queueJoinWithId: 'Join the line', queueIdNeeded: 'Enter the ID number',
    queueIdInLine: 'This ID already has a place in this line (one per ID): carry on in the page where you joined.',
    queueProving: 'Checking your request to join, a moment…',
    queueRegisteredTitle: "You're registered for the draw", queueRegistered: when => `The draw is at ${when}. You can close this page and come back for the result.`,
    queueDrawIn: 'The draw is in', queueWonTitle: 'You were drawn!', queueSlotIn: 'Your buying slot starts in',
    queueSlot: when => `Your buying slot starts at ${when}; this page opens the seat map then (you can close it and come back).`,
    queueNotDrawnTitle: 'Not drawn this time', queueNotDrawn: when => `Sorry, you were not drawn. If seats remain once the sale opens (${when}), you can queue for them.`,
    queueRegistrationClosed: when => `Registration for the draw has closed; from ${when} you can queue for the seats that remain.`,
    queueTitle: "You're in line", queueEarlyTitle: 'The sale opens soon', queueAdmittedTitle: "It's your turn!", queueSoldOutTitle: 'Sold out',
    queueLeftTitle: 'Your place has lapsed', queuePosition: 'Your place in line', queuePositionAtOpening: 'Place given at random when the sale opens',
    queueAhead: n => (n === 0 ? "You're next" : n === 1 ? '1 person ahead of you' : `${n} people ahead of you`),
    queueEta: s => (s < 60 ? 'Less than a minute to wait' : `About ${Math.ceil(s / 60)} min to wait`), queueOpensIn: 'The sale opens in',
    queueShuffled: 'Everyone who arrives before the sale opens gets a random place at opening: arriving early or refreshing does not move you up.',
    queueKeepOpen: "Keep this page open; no need to refresh. The seat map opens by itself when it's your turn.",
    queueAdmitted: "It's your turn: opening the seat map…",
    queueAdmittedFor: (minutes, until) => `It's your turn! Pick and hold your seats within ${minutes} minutes (by ${until}), or your place goes to the next buyer. Opening the seat map…`, queueOff: 'The line is over: opening the seat map…',
    queueSoldOut: 'Sorry, every seat for this show has been sold.', queueLeft: 'This page stopped answering for a while, so the place was given up.',
    queueRejoin: 'Join the line again', queueOthers: 'See other show times', queueNotYet: when => `The line opens at ${when}; please come back then.`,
    queueTooMany: 'Too many places in this line from your network; please try again later.',
    queueNow: (n, ahead) => `You are number ${n} in line, ${ahead} ahead of you`, queueProgress: 'Progress in the line',
    queueAgain: 'Your admission has ended; please join the line again',
    admissionInUse: 'You already have seats on hold: pay for them or cancel them first',
    admissionSpent: 'This place in line has bought its tickets: join the line again to buy more',
  },
};

// A language in the link (`?lang=zh`) is kept, as a choice on the page is: the next page, the receipt and
// the console stay in it (it was forgotten at the next click that left the link's query behind).
let current = (() => {
  const linked = new URLSearchParams(location.search).get('lang');
  if (linked === 'en' || linked === 'zh') { localStorage.setItem('seatkit.lang', linked); return linked; }
  const kept = localStorage.getItem('seatkit.lang');
  return kept === 'en' || kept === 'zh' ? kept : (navigator.language || '').startsWith('zh') ? 'zh' : 'en';
})();

export const lang = () => current;

/// A page's phrase table (`{zh: {...}, en: {...}}`) as one function: the entry for `key` in the page's
/// language, called with `args` when it is a phrase that takes some. Every page's words go through it.
export const phrasebook = table => (key, ...args) => {
  const s = table[current][key];
  return typeof s === 'function' ? s(...args) : s;
};

/// The picker's words.
export const t = phrasebook(strings);

/// A text the server sends in both languages (`{"zh","en"}`, a rule's message, a show's title), in
/// the page's; a plain string as it is.
export const inLanguage = v => (typeof v === 'string' ? v : v?.[current] ?? v?.en ?? v?.zh);

export function setLanguage(code) {
  current = code;
  localStorage.setItem('seatkit.lang', code);
  applyStatic();
}

/// Text of every element marked `data-i18n`, labels of those marked `data-i18n-label`.
export function applyStatic() {
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll('[data-i18n-role]')) el.setAttribute('aria-roledescription', t(el.dataset.i18nRole));
  const other = current === 'zh' ? 'en' : 'zh';
  const button = document.getElementById('language');
  button.textContent = other === 'en' ? 'EN' : '中文';
  button.lang = other === 'en' ? 'en' : 'zh-CN';
  button.setAttribute('aria-label', other === 'en' ? 'Switch to English' : '切换到中文');
}

/// "2026-11-30T19:30:00+08:00" as the venue's local date and time, as printed on the ticket.
/// Day and month names as `Intl` writes them for zh-CN and en-GB ("周三", "Wed 24 Dec"): a table,
/// since the first `Intl.DateTimeFormat` of a page costs 20–30 ms while ICU loads, on the way to the map.
const WEEKDAYS = { zh: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'], en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/// "2099-12-24T19:30:00+08:00" → {day: "Thu 24 Dec" / "12月24日 周四", time: "19:30"}: the show's local
/// date and time as written (the venue's clock), whatever the browser's time zone.
export function showTime(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!m) return { day: iso, time: '' };
  const weekday = WEEKDAYS[current === 'zh' ? 'zh' : 'en'][new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDay()];
  const day = current === 'zh' ? `${+m[2]}月${+m[3]}日 ${weekday}` : `${weekday} ${+m[3]} ${MONTHS[+m[2] - 1]}`;
  return { day, time: `${m[4]}:${m[5]}` };
}

/// "普通区 Standard" → the half in the current language (the engine's rule for bilingual names).
export function localName(name) {
  const i = name.indexOf(' ');
  if (i < 0) return name;
  const head = name.slice(0, i), tail = name.slice(i + 1);
  const cjk = s => /[\u2E80-\uFFFF]/.test(s);
  if (!cjk(head) || cjk(tail)) return name;
  return current === 'zh' ? head : tail;
}
