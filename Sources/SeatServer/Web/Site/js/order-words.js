// The buyer's order page's words, in Chinese and English (one language at a time; the page's toggle).

import { phrasebook } from './i18n.js';

const words = {
  zh: {
    title: '我的订单', skip: '跳到主要内容', loading: '正在读取订单…', ticketsTitle: '电子票', ticketsHelp: '入场时出示二维码，一座一码。',
    afterTitle: '改签与退票', exchange: '改签', refund: '退票', calendar: '加入日历', exchangeTitle: '改签到其他场次',
    exchangeLegend: '选择场次（系统为您选择最佳座位，座位数不变）', exchangeConfirm: '确认改签', cancel: '取消',
    refundTitle: '确认退票？', refundConfirm: '确认退票', historyTitle: '订单记录',
    order: '订单号', hall: '影厅', seats: '座位', total: '实付', status: '状态', valid: '已出票', exchangedAway: '已改签', refunded: '已退票',
    seatName: (row, seat) => `${row}排${seat}座`, ticketAlt: seat => `${seat}的入场二维码`,
    notFound: '找不到这个订单，或链接不完整。请使用购票成功页面或短信中的完整链接。', failed: '暂时无法读取订单，请稍后刷新。',
    exchangesLeft: (n, until, fee) => (n > 0 ? `可改签 ${n} 次，${until} 前${fee}` : '本订单已不能再改签'),
    feeFree: '，免手续费', feeEach: fee => `，手续费 ${fee}/张`,
    refundUntil: until => `${until} 前可退票，全额退款`, noRefunds: '本场次不支持自助退票，如需退票请联系影院',
    closed: '已截止', noOtherShows: '暂无可改签的场次。', pickShow: '请选择要改签的场次。', nothingLost: '改签后仍可按该场次规则退票。',
    lossNoRefunds: '注意：该场次不支持退票，改签后本订单将不可退。', lossRefundsClosed: '注意：该场次已过退票截止时间，改签后本订单将不可退。',
    lossLastExchange: '这是本订单最后一次改签机会，改签后不能再改。', exchangeFee: (fee, n) => `改签手续费 ${fee} × ${n} 张，票价差额多退少补。`,
    exchanged: (seats, diff) => `改签成功！新座位：${seats}。${diff}`, toPay: m => `需补差价 ${m}。`, toReturn: m => `将退还 ${m}。`, even: '无需补差价。',
    refundWhat: (seats, m) => `退 ${seats}，退款 ${m}，原路退回。退票后座位将重新开放。`, refundDone: m => `退票成功，${m} 将原路退回。`,
    historyExchange: (when, from, to) => `${when} 改签：${from} → ${to}`, historyRefund: (when, seat) => `${when} 退票：${seat}`,
    nothingLeft: '本订单的座位已全部退票。',
  },
  en: {
    title: 'My order', skip: 'Skip to content', loading: 'Loading your order…', ticketsTitle: 'Tickets', ticketsHelp: 'Show the QR code at the door: one code a seat.',
    afterTitle: 'Change or refund', exchange: 'Change showing', refund: 'Refund', calendar: 'Add to calendar', exchangeTitle: 'Change to another showing',
    exchangeLegend: 'Choose a showing (we pick the best free seats, the same number)', exchangeConfirm: 'Confirm the change', cancel: 'Cancel',
    refundTitle: 'Refund this order?', refundConfirm: 'Refund', historyTitle: 'History',
    order: 'Order', hall: 'Hall', seats: 'Seats', total: 'Paid', status: 'Status', valid: 'Issued', exchangedAway: 'Changed', refunded: 'Refunded',
    seatName: (row, seat) => `Row ${row} Seat ${seat}`, ticketAlt: seat => `Entry QR code for ${seat}`,
    notFound: 'This order cannot be found, or the link is incomplete. Please use the full link from your receipt or text message.',
    failed: 'Your order cannot be loaded right now; please refresh in a moment.',
    exchangesLeft: (n, until, fee) => (n > 0 ? `Change of showing: ${n} left, until ${until}${fee}` : 'This order can no longer be changed'),
    feeFree: ', free', feeEach: fee => `, ${fee} a ticket`,
    refundUntil: until => `Full refund until ${until}`, noRefunds: 'This showing takes no refunds online; please ask the cinema',
    closed: 'closed', noOtherShows: 'No other showing to change to.', pickShow: 'Choose the showing to change to.',
    nothingLost: 'After the change you may still refund, by that showing’s terms.',
    lossNoRefunds: 'Note: that showing takes no refunds; after the change this order cannot be refunded.',
    lossRefundsClosed: 'Note: refunds for that showing have closed; after the change this order cannot be refunded.',
    lossLastExchange: 'This is the order’s last change: it cannot be changed again.', exchangeFee: (fee, n) => `Fee ${fee} × ${n}; any price difference is charged or refunded.`,
    exchanged: (seats, diff) => `Changed! Your new seats: ${seats}. ${diff}`, toPay: m => `${m} to pay.`, toReturn: m => `${m} will be refunded.`, even: 'Nothing to pay.',
    refundWhat: (seats, m) => `Refund ${seats}: ${m} back to your payment. The seats go back on sale.`, refundDone: m => `Refunded: ${m} goes back to your payment.`,
    historyExchange: (when, from, to) => `${when} changed: ${from} → ${to}`, historyRefund: (when, seat) => `${when} refunded: ${seat}`,
    nothingLeft: 'Every seat of this order has been refunded.',
  },
};

export const o = phrasebook(words);
