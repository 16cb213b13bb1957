import Foundation
import os

/// A property wrapper that keeps its value in UserDefaults: whatever it wraps is a plist entry.
@propertyWrapper
struct Preference<Value> {
    let key: String
    let fallback: Value

    init(_ key: String, fallback: Value) {
        self.key = key
        self.fallback = fallback
    }

    var wrappedValue: Value {
        get { UserDefaults.standard.object(forKey: key) as? Value ?? fallback }
        set { UserDefaults.standard.set(newValue, forKey: key) }
    }
}

enum SessionKind: String {
    case password, passcode, biometric
}

final class SessionPreferences {
    // Leak: the session token lives in UserDefaults through the wrapper.
    @Preference("sessionToken", fallback: "") var sessionToken: String
    // Fine: a flag and an enum case are no secrets.
    @Preference("hasPasscode", fallback: false) var hasPasscode: Bool
    var availableSecrets: SessionKind = .password

    private let log = Logger(subsystem: "com.example.leakybank", category: "session")

    func signedIn(user: String, token: String) {
        sessionToken = token
        // Fine: Apple's Logger and os_log keep dynamic values private unless marked public.
        log.info("Signed in \(user, privacy: .public) with \(token)")
        os_log("%{public}@ signed in with %@", user, token)
        UserDefaults.standard.set(availableSecrets.rawValue, forKey: "secretKind")
    }
}
