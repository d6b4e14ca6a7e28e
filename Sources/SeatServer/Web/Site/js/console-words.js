// The console's words in Chinese and English (the page's own strings; i18n.js keeps the picker's).

import { lang } from './i18n.js';

const seats = n => (n === 1 ? '1 seat' : `${n} seats`);

export const WORDS = {
  zh: {
    title: 'SeatKit 售票台', skip: '跳到内容', signInTitle: '登录', keyLabel: '操作员密钥', signIn: '登录', signOut: '退出',
    wrongKey: '这不是操作员的密钥，请检查后重试。', signedIn: (n, r) => `${n}（${r === 'manager' ? '经理' : r === 'door' ? '检票员' : '售票员'}）`,
    doorOnly: '这是检票员的密钥：检票员只能检票，不能使用售票后台。',
    desk: '场次工作台', showLabel: '场次', deskHelp: '点击或拖动标记座位（任何状态），按住 Shift 拖出方框可框选，再选择下面的操作。方向键移动，空格标记。快捷键：B 锁座，U 恢复销售，K 预留，S 售票，R 退票，Esc 清除标记。',
    marked: '已标记座位', none: '未标记座位', reason: '原因', blockTitle: '锁座', block: '锁定', unblock: '恢复销售',
    keepTitle: '预留给来宾', guest: '来宾', releaseAt: '恢复销售时间', keep: '预留', sellTitle: '柜台售票', payment: '付款方式',
    orderRef: '订单号', sell: '售出', refundTitle: '退票', findOrder: '查找标记座位的订单', refund: '退标记的座位',
    reservations: '预留与锁座', recent: '最近变更', noneYet: '暂无', blocked: '锁座', house: '预留',
    done: {
      block: n => `已锁定 ${n} 个座位`, unblock: n => `${n} 个座位已恢复销售`, keep: n => `已为来宾预留 ${n} 个座位`,
      sell: (ref, total) => `已售出：订单 ${ref}，合计 ${total}`, refund: (ref, n) => (n === 'all' ? `订单 ${ref} 已全部退票` : `订单 ${ref} 已退 ${n} 个座位`),
    },
    markFirst: '请先在座位图上标记座位。', noReservation: '标记的座位不在任何预留或锁座中。', noOrder: '标记的座位不属于任何订单。',
    heatTitle: '热力图', heatShow: '在座位图上显示以往上座率', period: '时段（天）',
    door: '检票', came: '已到场', insideNow: '当前在场',
    heatCaption: (shows, days) => `过去 ${days} 天的 ${shows} 场演出中每个座位售出的比例`, heatNone: days => `过去 ${days} 天没有已结束的场次`,
    zoneAverage: (name, pct) => `${name}：${pct}`,
    schedule: '排片表', weekOf: '起始日期', dayOf: '日期', corner: '影厅 / 日期', boardLabel: '各厅每日场次（方向键滚动）',
    boardView: '视图', viewWeek: '一周（影厅 × 日期）', viewDay: '一天（影厅 × 时段）', dayLabel: '各厅当天时段（方向键滚动）',
    dayCorner: d => `影厅 / ${d.slice(5)}`,
    timedShow: (from, to, title, seats, net, overlaps) =>
      `${from}–${to} ${title}${overlaps ? ' ⚠与上一场重叠' : ''} · 空${seats.available}${seats.held ? ` 留${seats.held}` : ''} 售${seats.sold}${net ? ` · ${net}` : ''}`,
    boardShow: (time, seats, net) => `${time} · 空${seats.available}${seats.held ? ` 留${seats.held}` : ''} 售${seats.sold}${net ? ` · ${net}` : ''}`,
    reportsTitle: '报表', showReport: '本场', dayReport: '按日', refresh: '刷新', csv: '下载 CSV', from: '从', to: '到', show: '显示',
    status: '状态', seats: '座位', share: '占比', zone: '区域', available: '可售', held: '保留中', sold: '已售', blockedStatus: '锁定',
    revenue: '收入', gross: '总收入', refunded: '已退', net: '净收入', byCategory: '按类别', byChannel: '按渠道', byPayment: '按付款方式',
    date: '日期', shows: '场次', amount: '金额', seatsChart: '座位状态', netChart: '每日净收入', nothing: '没有数据',
    pricesTitle: '票价', category: '类别', now: '现价', new: '新价', preview: '预览', apply: '应用',
    previewText: (changes, free, held) => `${changes}。${free} 个可售座位按新价出售；已保留的 ${held} 个座位保持原价。`,
    noChange: '票价没有变化。', applied: rev => `新票价已生效（第 ${rev} 版），所有打开的选座页同时更新。`, badPrice: c => `${c} 的价格应为如 45.00 的金额`,
    forbidden: '你的角色不能做这件事。', failed: t => `操作失败：${t}`, offline: '无法连接服务器。',
    queueTitle: '排队', queueNone: '本场没有排队（直接售票）。', queueOpens: '开售时间', queueRate: '每分钟放入人数',
    queueEarly: '开售前多少分钟内到达的随机排序', queueAdmission: '放入后选座时限（分钟）', queuePerAddress: '每个网络地址的排队名额',
    queueSave: '设置排队', queueUpdate: '更新设置', queueOff: '关闭排队（全部放入）',
    queueState: { before: '等待开售', open: '放行中', soldOut: '已售罄', off: '已关闭' },
    queueFacts: { state: '状态', opens: '开售', length: '排队人数', admitted: '已放入', lastMinute: '最近一分钟放入', waitAtBack: '队尾预计等待', sold: '已售座位' },
    queueWait: s => (s < 60 ? `${s} 秒` : `${Math.ceil(s / 60)} 分钟`), queueSet: '排队已设置。', queueSwitchedOff: n => `排队已关闭，${n} 人被放入。`,
  },
  en: {
    title: 'SeatKit console', skip: 'Skip to content', signInTitle: 'Sign in', keyLabel: 'Operator key', signIn: 'Sign in', signOut: 'Sign out',
    wrongKey: 'That is not an operator key. Check it and try again.', signedIn: (n, r) => `${n} (${r === 'manager' ? 'manager' : r === 'door' ? 'door' : 'box office'})`,
    doorOnly: 'This is a door key: door staff scan tickets and cannot use the box office.',
    desk: 'Show desk', showLabel: 'Show', deskHelp: 'Click or drag to mark seats (of any status), or Shift and drag a box around them; then choose an action below. Arrow keys move, Space marks. Keys: B block, U return to sale, K keep, S sell, R refund, Esc clear the marks.',
    marked: 'Marked seats', none: 'No seats marked', reason: 'Reason', blockTitle: 'Block', block: 'Block', unblock: 'Return to sale',
    keepTitle: 'Keep for guests', guest: 'For', releaseAt: 'Back on sale', keep: 'Keep', sellTitle: 'Sell at the counter', payment: 'Payment',
    orderRef: 'Order', sell: 'Sell', refundTitle: 'Refund', findOrder: 'Order of the marked seat', refund: 'Refund marked seats',
    reservations: 'Reservations', recent: 'Recent changes', noneYet: 'None yet', blocked: 'blocked', house: 'kept',
    done: {
      block: n => `${seats(n)} blocked`, unblock: n => `${seats(n)} back on sale`, keep: n => `${seats(n)} kept for guests`,
      sell: (ref, total) => `Sold: order ${ref}, total ${total}`, refund: (ref, n) => (n === 'all' ? `Order ${ref} refunded` : `${seats(n)} of order ${ref} refunded`),
    },
    markFirst: 'Mark seats on the map first.', noReservation: 'None of the marked seats is blocked or kept.', noOrder: 'The marked seat is in no order.',
    heatTitle: 'Heat map', heatShow: 'Past occupancy over the map', period: 'Period (days)',
    door: 'Door', came: 'Came (tickets scanned in)', insideNow: 'Inside now',
    heatCaption: (shows, days) => `Share of the ${shows} shows of the last ${days} days in which each seat sold`, heatNone: days => `No show ended in the last ${days} days`,
    zoneAverage: (name, pct) => `${name}: ${pct}`,
    schedule: 'Schedule', weekOf: 'Week from', dayOf: 'Day', corner: 'Hall / day', boardLabel: 'Halls by day (arrow keys scroll)',
    boardView: 'View', viewWeek: 'Week (halls × days)', viewDay: 'Day (halls × time of day)', dayLabel: 'Halls by time of day (arrow keys scroll)',
    dayCorner: d => `Hall / ${d.slice(5)}`,
    timedShow: (from, to, title, seats, net, overlaps) =>
      `${from}–${to} ${title}${overlaps ? ' ⚠ overlaps the show before' : ''} · ${seats.available} free${seats.held ? ` · ${seats.held} held` : ''} · ${seats.sold} sold${net ? ` · ${net}` : ''}`,
    boardShow: (time, seats, net) => `${time} · ${seats.available} free${seats.held ? ` · ${seats.held} held` : ''} · ${seats.sold} sold${net ? ` · ${net}` : ''}`,
    reportsTitle: 'Reports', showReport: 'This show', dayReport: 'By day', refresh: 'Refresh', csv: 'Download CSV', from: 'From', to: 'To', show: 'Show',
    status: 'Status', seats: 'Seats', share: 'Share', zone: 'Zone', available: 'available', held: 'held', sold: 'sold', blockedStatus: 'blocked',
    revenue: 'Revenue', gross: 'gross', refunded: 'refunded', net: 'net', byCategory: 'By category', byChannel: 'By channel', byPayment: 'By payment',
    date: 'Date', shows: 'Shows', amount: 'Amount', seatsChart: 'Seats by status', netChart: 'Net revenue by day', nothing: 'Nothing yet',
    pricesTitle: 'Prices', category: 'Category', now: 'Now', new: 'New', preview: 'Preview', apply: 'Apply',
    previewText: (changes, free, held) => `${changes}. ${free} seats on sale are sold at the new prices; the ${held} seats held now keep the prices they were held at.`,
    noChange: 'No price changes.', applied: rev => `New prices in force (revision ${rev}); every open picker has them now.`, badPrice: c => `The price of ${c} must be an amount like 45.00`,
    forbidden: 'Your role cannot do this.', failed: t => `That did not work: ${t}`, offline: 'Cannot reach the server.',
    queueTitle: 'Waiting room', queueNone: 'No waiting room for this show (buyers go straight to the map).', queueOpens: 'Sale opens',
    queueRate: 'Let in a minute', queueEarly: 'Shuffle arrivals from (minutes before)', queueAdmission: 'Minutes to start holding',
    queuePerAddress: 'Places an address', queueSave: 'Set up', queueUpdate: 'Update', queueOff: 'Switch off (let everyone in)',
    queueState: { before: 'before opening', open: 'letting buyers in', soldOut: 'sold out', off: 'switched off' },
    queueFacts: { state: 'State', opens: 'Opens', length: 'Waiting', admitted: 'Let in', lastMinute: 'Let in, last minute', waitAtBack: 'Wait at the back', sold: 'Seats sold' },
    queueWait: s => (s < 60 ? `${s} s` : `${Math.ceil(s / 60)} min`), queueSet: 'Waiting room set.', queueSwitchedOff: n => `Waiting room off: ${n} let in.`,
  },
};
/// The word for `key` in the page's language.
export const w = key => WORDS[lang()][key];

