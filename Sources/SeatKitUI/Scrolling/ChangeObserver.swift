#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI

/// `onChange(of:)` for apps on iOS 16 and later without a warning on either: the two-argument form where
/// it exists (iOS 17), the one-argument form, deprecated in iOS 17, only before. Built for an app whose
/// target is iOS 17 or later, the one-argument form each view once called gave three warnings.
struct ChangeObserver<Value: Equatable>: ViewModifier {
    let value: Value
    let action: (Value) -> Void

    func body(content: Content) -> some View {
        if #available(iOS 17.0, macOS 14.0, *) {
            content.onChange(of: value) { _, newValue in action(newValue) }
        } else {
            content.onChange(of: value, perform: action)
        }
    }
}

extension View {
    /// Calls `action` with the new value each time `value` changes.
    func onValueChange<Value: Equatable>(of value: Value, perform action: @escaping (Value) -> Void) -> some View {
        modifier(ChangeObserver(value: value, action: action))
    }
}
#endif
