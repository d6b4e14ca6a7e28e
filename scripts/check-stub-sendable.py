#!/usr/bin/env python3
"""The stand-ins' Sendable facts against a real iOS SDK: scripts/check-stub-sendable.py SDK_DIR.

Tests/UIKitStub and Tests/SwiftUIStub let scripts/check-uikit.sh type-check SeatKitUI on Linux. A stand-in
that calls a class Sendable when the SDK does not hides the very errors Swift 6 gives in Xcode (the door
scanner's capture of an AVCaptureSession in a @Sendable closure passed here and failed against iOS 18.6).
For every Objective-C class a stand-in declares, this reads the SDK: the class is Sendable there when its
@interface carries NS_SWIFT_SENDABLE or the framework's Swift overlay extends it to Sendable. The stand-in
must say the same. The SDK is not shipped with SeatKit; fetch one and pass its path (the *.sdk folder).
Prints each class checked; exits 1 on any disagreement, 2 when the SDK is not there.
"""
import glob, os, re, sys

def main():
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "System/Library/Frameworks")):
        print("usage: check-stub-sendable.py PATH/iPhoneOS18.6.sdk (an iOS SDK folder)", file=sys.stderr)
        return 2
    sdk = sys.argv[1]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    stubs = {"UIKit": "Tests/UIKitStub/UIKit.swift", "AVFoundation": "Tests/UIKitStub/AVFoundation.swift"}
    problems, checked = [], 0
    for framework, path in stubs.items():
        text = open(os.path.join(root, path)).read()
        headers = glob.glob(os.path.join(sdk, f"System/Library/Frameworks/{framework}.framework/Headers/*.h"))
        sources = {h: open(h, errors="replace").read() for h in headers}
        overlay = ""
        for p in glob.glob(os.path.join(sdk, f"usr/lib/swift/{framework}.swiftmodule/arm64-apple-ios.swiftinterface")):
            overlay = open(p, errors="replace").read()
        for m in re.finditer(r"open class (\w+)\s*:\s*([^{]*)\{", text):
            name, inherits = m.group(1), m.group(2)
            declared = None
            for h, src in sources.items():
                d = re.search(r"((?:^.*\n){0,3})@interface " + name + r"\s*:", src, re.M)
                if d:
                    declared = d.group(1)
                    break
            if declared is None:
                continue  # not an Objective-C class of this framework (a Swift-only stand-in)
            checked += 1
            sdk_sendable = "NS_SWIFT_SENDABLE" in declared or re.search(
                rf"extension {framework}\.{name}\s*:\s*@unchecked Swift\.Sendable", overlay) is not None
            stub_sendable = "Sendable" in inherits
            state = "Sendable" if sdk_sendable else "not Sendable"
            if sdk_sendable != stub_sendable:
                problems.append(f"{path}: {name} is {state} in the SDK, but the stand-in says {'Sendable' if stub_sendable else 'not Sendable'}")
            else:
                print(f"{framework}.{name}: {state}, as the SDK says")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"stand-ins' Sendable facts: {checked} classes checked against {os.path.basename(sdk.rstrip('/'))}, {len(problems)} wrong")
    return 1 if problems else 0

sys.exit(main())
