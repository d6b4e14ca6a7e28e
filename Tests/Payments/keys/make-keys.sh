#!/bin/sh
# Test-only keys for the payment providers' tests (never a real merchant's): run once, committed, so
# every run signs and verifies the same way. Shapes as the providers hand them out:
#   merchant-key.pem        WeChat Pay merchant API key (PKCS#8), merchant-cert.pem its certificate
#   platform-key.pem        the test WeChat Pay's own key, platform-cert.pem its certificate (serial 5157F09E…)
#   alipay-app-key.pem      the Alipay app's key as PKCS#1 (`RSA PRIVATE KEY`, as Alipay's key tool writes for
#                           non-Java servers), alipay-app-public.pem its public key
#   alipay-key.pem          the test Alipay's own key, alipay-public.txt its public key as the bare base64
#                           Alipay's console shows (no PEM lines)
set -e
cd "$(dirname "$0")"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out merchant-key.pem 2>/dev/null
openssl req -new -x509 -key merchant-key.pem -days 7300 -subj "/CN=1900009191/O=SeatKit test merchant" -set_serial 0x3775B6A45ACD588826FF8B79F5DCBE6B1F8C8B4E -out merchant-cert.pem
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out platform-key.pem 2>/dev/null
openssl req -new -x509 -key platform-key.pem -days 7300 -subj "/CN=Tenpay.com Root CA test/O=SeatKit test WeChat Pay" -set_serial 0x5157F09EFDC096DE15EBE81A47057A7232F1B8E1 -out platform-cert.pem
openssl genrsa -traditional -out alipay-app-key.pem 2048 2>/dev/null
openssl rsa -in alipay-app-key.pem -pubout -out alipay-app-public.pem 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out alipay-key.pem 2>/dev/null
openssl pkey -in alipay-key.pem -pubout 2>/dev/null | grep -v -- ----- | tr -d '\n' > alipay-public.txt
