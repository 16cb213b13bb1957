import LocalAuthentication

/// Unlocks the app with Face ID: the reason NSFaceIDUsageDescription is declared.
final class BiometricLock {
    func unlock(completion: @escaping (Bool) -> Void) {
        let context = LAContext()
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics,
                               localizedReason: "Unlock LeakyBank") { success, _ in
            completion(success)
        }
    }

    /// Session timeout measured from boot time, so changing the clock cannot extend it.
    func sessionExpired(startedAt uptime: TimeInterval) -> Bool {
        ProcessInfo.processInfo.systemUptime - uptime > 300
    }
}
