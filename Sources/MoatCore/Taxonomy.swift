/// The identifiers findings are tagged with. MASVS v2 only (never v1 ids such as `MSTG-PLATFORM-1`).
public enum Taxonomy {
    /// MASVS v2 controls and their statements.
    public static let masvs: [String: String] = [
        "MASVS-STORAGE-1": "The app securely stores sensitive data.",
        "MASVS-STORAGE-2": "The app prevents leakage of sensitive data.",
        "MASVS-CRYPTO-1": "The app employs current strong cryptography and uses it according to industry best practices.",
        "MASVS-CRYPTO-2": "The app performs key management according to industry best practices.",
        "MASVS-AUTH-1": "The app uses secure authentication and authorization protocols and follows the relevant best practices.",
        "MASVS-AUTH-2": "The app performs local authentication securely according to the platform best practices.",
        "MASVS-AUTH-3": "The app secures sensitive operations with additional authentication.",
        "MASVS-NETWORK-1": "The app secures all network traffic according to the current best practices.",
        "MASVS-NETWORK-2": "The app performs identity pinning for all remote endpoints under the developer's control.",
        "MASVS-PLATFORM-1": "The app uses IPC mechanisms securely.",
        "MASVS-PLATFORM-2": "The app uses WebViews securely.",
        "MASVS-PLATFORM-3": "The app uses the user interface securely.",
        "MASVS-CODE-1": "The app requires an up-to-date platform version.",
        "MASVS-CODE-2": "The app has a mechanism for enforcing app updates.",
        "MASVS-CODE-3": "The app only uses software components without known vulnerabilities.",
        "MASVS-CODE-4": "The app validates and sanitizes all untrusted inputs.",
        "MASVS-RESILIENCE-1": "The app validates the integrity of the platform.",
        "MASVS-RESILIENCE-2": "The app implements anti-tampering mechanisms.",
        "MASVS-RESILIENCE-3": "The app implements anti-static analysis mechanisms.",
        "MASVS-RESILIENCE-4": "The app implements anti-dynamic analysis techniques.",
        "MASVS-PRIVACY-1": "The app minimizes access to sensitive data and resources.",
        "MASVS-PRIVACY-2": "The app prevents identification of the user.",
        "MASVS-PRIVACY-3": "The app is transparent about data collection and usage.",
        "MASVS-PRIVACY-4": "The app offers user control over their data.",
    ]

    /// The MASVS v2 area of a control id: `MASVS-NETWORK-1` → `NETWORK`.
    public static func area(of control: String) -> String {
        let parts = control.split(separator: "-")
        return parts.count >= 2 ? String(parts[1]) : control
    }

    /// The iOS MASTG tests Moat refers to, with their titles.
    public static let mastg: [String: String] = [
        "MASTG-TEST-0052": "Testing Local Data Storage",
        "MASTG-TEST-0053": "Checking Logs for Sensitive Data",
        "MASTG-TEST-0058": "Testing Backups for Sensitive Data",
        "MASTG-TEST-0061": "Verifying the Configuration of Cryptographic Standard Algorithms",
        "MASTG-TEST-0062": "Testing Key Management",
        "MASTG-TEST-0063": "Testing Random Number Generation",
        "MASTG-TEST-0065": "Testing Data Encryption on the Network",
        "MASTG-TEST-0066": "Testing the TLS Settings",
        "MASTG-TEST-0067": "Testing Endpoint Identity Verification",
        "MASTG-TEST-0068": "Testing Custom Certificate Stores and Certificate Pinning",
        "MASTG-TEST-0069": "Testing App Permissions",
        "MASTG-TEST-0070": "Testing Universal Links",
        "MASTG-TEST-0071": "Testing UIActivity Sharing",
        "MASTG-TEST-0072": "Testing App Extensions",
        "MASTG-TEST-0073": "Testing UIPasteboard",
        "MASTG-TEST-0075": "Testing Custom URL Schemes",
        "MASTG-TEST-0076": "Testing iOS WebViews",
        "MASTG-TEST-0077": "Testing WebView Protocol Handlers",
        "MASTG-TEST-0078": "Determining Whether Native Methods Are Exposed Through WebViews",
        "MASTG-TEST-0079": "Testing Object Persistence",
        "MASTG-TEST-0081": "Making Sure that the App Is Properly Signed",
        "MASTG-TEST-0082": "Testing whether the App is Debuggable",
        "MASTG-TEST-0085": "Checking for Weaknesses in Third Party Libraries",
        "MASTG-TEST-0086": "Memory Corruption Bugs",
        "MASTG-TEST-0087": "Make Sure That Free Security Features Are Activated",
    ]

    public static func cweURL(_ id: Int) -> String { "https://cwe.mitre.org/data/definitions/\(id).html" }
    public static func masvsURL(_ control: String) -> String {
        "https://mas.owasp.org/MASVS/controls/\(control)/"
    }
    public static func mastgURL(_ test: String) -> String { "https://mas.owasp.org/MASTG/tests/ios/\(test)/" }
}
