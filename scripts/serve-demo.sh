#!/usr/bin/env bash
# `make demo`: the server on 127.0.0.1:8080 with the embedded store (demo.db) and the sample venues,
# taking TEST MONEY ONLY: WeChat Pay and Alipay are played by the local payment sandbox
# (Tests/Payments/sandbox.py on 127.0.0.1:8431, the test keys in Tests/Payments/keys), whose cashier page
# stands in for the wallets' apps; cards by localstripe (PyPI, a Stripe-compatible server with its own
# Stripe.js, on 127.0.0.1:8420: pay with 4242 4242 4242 4242). The buyer's page says "test money" on every
# payment. Ctrl-C stops all three.
#   scripts/serve-demo.sh [SEATKIT_BINARY] [extra serve options…]
set -euo pipefail
cd "$(dirname "$0")/.."
seatkit=${1:-.build/release/seatkit}
shift || true
port=${SEATKIT_DEMO_PORT:-8080}
sandbox_port=${SEATKIT_SANDBOX_PORT:-8431}
stripe_port=${SEATKIT_LOCALSTRIPE_PORT:-8420}
stripe_secret=whsec_seatkit_demo_0123456789
keys=$PWD/Tests/Payments/keys
mkdir -p .build
payments=.build/demo-payments.txt
cat > "$payments" <<PAYMENTS
# make demo: test money only (the local sandbox), never a real merchant's keys.
wechatpay mchid=1900009191 appid=wxd678efh567hg6787 serial=3775B6A45ACD588826FF8B79F5DCBE6B1F8C8B4E privateKey=$keys/merchant-key.pem apiV3Key=SeatKitSandboxApiV3Key0123456789 platformCert=$keys/platform-cert.pem notifyUrl=http://127.0.0.1:$port/v1/payments/wechatpay/notify api=http://127.0.0.1:$sandbox_port
alipay appId=2021000117600000 privateKey=$keys/alipay-app-key.pem alipayPublicKey=$keys/alipay-public.txt notifyUrl=http://127.0.0.1:$port/v1/payments/alipay/notify gateway=http://127.0.0.1:$sandbox_port/gateway.do
stripe secretKey=sk_test_seatkit_demo webhookSecret=$stripe_secret publishableKey=pk_test_seatkit_demo api=http://127.0.0.1:$stripe_port
cash
PAYMENTS
python3 Tests/Payments/sandbox.py --port "$sandbox_port" &
sandbox=$!
python3 -m localstripe --port "$stripe_port" --from-scratch >/dev/null 2>&1 &
localstripe=$!
trap 'kill $sandbox $localstripe 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 50); do
  curl -fsS "http://127.0.0.1:$sandbox_port/_sandbox/health" >/dev/null 2>&1 && break
  kill -0 $sandbox 2>/dev/null || { echo "the payment sandbox did not start (make payment-deps installs what it needs)" >&2; exit 1; }
  sleep 0.2
done
for _ in $(seq 50); do
  curl -fsS "http://127.0.0.1:$stripe_port/js.stripe.com/v3/" >/dev/null 2>&1 && break
  kill -0 $localstripe 2>/dev/null || { echo "localstripe did not start (make payment-deps installs it)" >&2; exit 1; }
  sleep 0.2
done
# localstripe signs its webhooks to the server with the endpoint's secret, as Stripe does.
curl -fsS "http://127.0.0.1:$stripe_port/_config/webhooks/seatkit" -d "url=http://127.0.0.1:$port/v1/payments/stripe/notify" \
  -d "secret=$stripe_secret" -d "events[]=payment_intent.succeeded" -d "events[]=payment_intent.payment_failed" >/dev/null
echo "TEST MONEY: WeChat Pay and Alipay are the local sandbox on http://127.0.0.1:$sandbox_port, cards localstripe on http://127.0.0.1:$stripe_port (card 4242 4242 4242 4242; no real money moves)"
"$seatkit" serve --store sqlite:demo.db --port "$port" --admin-key "${SEATKIT_ADMIN_KEY:-demo-admin-key-change-me}" \
  --holds-per-second 2000 --trusted-proxies 127.0.0.1 --payments "$payments" "$@"
