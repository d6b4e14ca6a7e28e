// @ts-check
// The Pay step's words, in Chinese and English (js/pay.js). Provider names as the providers write them
// on their own buttons: 微信支付 / WeChat Pay, 支付宝 / Alipay.

import { phrasebook } from './i18n.js';

const words = {
  zh: {
    title: '支付订单', payWith: '选择支付方式', pay: '去支付', payAmount: amount => `确认支付 ${amount}`, back: '返回修改座位',
    wechatpay: '微信支付', alipay: '支付宝', stripe: '银行卡', wechatpayNote: '微信扫码或跳转微信付款', alipayNote: '支付宝扫码或跳转支付宝付款',
    stripeNote: 'Visa、Mastercard、银联卡', left: time => `请在 ${time} 内完成支付，超时座位将自动释放`,
    oneMinute: '支付剩余不到1分钟', scan: { wechatpay: '请打开微信，扫一扫付款', alipay: '请打开支付宝，扫一扫付款' },
    qrAlt: provider => `${provider}付款二维码`, waiting: '等待付款… 付款成功后本页自动出票，请勿关闭。',
    checking: '正在确认付款结果…', returned: '如已付款，正在出票；如未付款，可重新打开支付页面。', openAgain: '重新打开支付页面',
    payHere: '在本设备上用支付宝付款', testMoney: '测试环境：这是测试金额，不会扣真实的钱。', testPay: '用测试金额付款（模拟扫码）',
    ended: '支付时间已过，座位已释放。如您已付款，款项将原路退回。', choose: '请选择支付方式',
    unavailable: '支付渠道暂时无法连接，请稍后再试或换一种支付方式。', refused: detail => `支付渠道未能创建付款：${detail}`,
    other: provider => `这笔订单正在用${provider}付款，请完成该付款；若要更换，请等待支付时间结束后重新选座。`,
    cardEnter: '请填写银行卡信息后付款。', cardLabel: '银行卡信息（卡号、有效期、安全码）', cardPay: amount => `用银行卡支付 ${amount}`,
    cardDeclined: detail => `银行卡未能付款：${detail} 请换一张卡再试。`, cardVerify: '请在弹出的银行页面完成验证…',
    waitingCard: '已提交付款，正在等待银行确认，请勿关闭本页。', cardUnavailable: '银行卡付款暂时无法加载，请稍后再试或改用微信支付、支付宝。', paid: '付款成功，正在出票…', total: '合计', seats: '座位',
  },
  en: {
    title: 'Pay for your order', payWith: 'Pay with', pay: 'Pay', payAmount: amount => `Pay ${amount}`, back: 'Back to the seats',
    wechatpay: 'WeChat Pay', alipay: 'Alipay', stripe: 'Card', wechatpayNote: 'Scan with WeChat, or open WeChat', alipayNote: 'Scan with Alipay, or open Alipay',
    stripeNote: 'Visa, Mastercard, UnionPay', left: time => `Pay within ${time}; after that the seats are let go`,
    oneMinute: 'Less than a minute left to pay', scan: { wechatpay: 'Open WeChat and scan to pay', alipay: 'Open Alipay and scan to pay' },
    qrAlt: provider => `${provider} payment QR code`, waiting: 'Waiting for your payment… Your tickets appear here once it is paid: keep this page open.',
    checking: 'Checking your payment…', returned: 'If you paid, your tickets are on their way; if not, open the payment page again.',
    openAgain: 'Open the payment page again', payHere: 'Pay with Alipay on this device', testMoney: 'Test server: this is test money, nothing real is charged.',
    testPay: 'Pay with test money (as if scanned)', ended: 'The time to pay has run out and the seats were let go. If you did pay, the money goes back the way it came.',
    choose: 'Choose a way to pay', unavailable: 'The payment service cannot be reached just now: try again shortly, or another way to pay.',
    refused: detail => `The payment service did not take the payment: ${detail}`,
    other: provider => `This order is being paid with ${provider}: finish that payment, or pick seats again once its time runs out.`,
    cardEnter: 'Enter your card, then pay.', cardLabel: 'Card details (number, expiry, security code)', cardPay: amount => `Pay ${amount} by card`,
    cardDeclined: detail => `The card was not charged: ${detail} Try another card.`,
    cardVerify: 'Finish your bank\'s check in the window that opened…', waitingCard: 'Payment sent: waiting for the bank to confirm. Keep this page open.',
    cardUnavailable: 'The card form cannot be loaded just now: try again shortly, or WeChat Pay or Alipay.', paid: 'Paid: issuing your tickets…',
    total: 'Total', seats: 'Seats',
  },
};

/// The Pay step's words.
export const pw = phrasebook(words);
