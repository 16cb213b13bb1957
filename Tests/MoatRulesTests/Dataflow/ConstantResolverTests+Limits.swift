import Foundation
import Testing
import MoatCore
import MoatSyntax
@testable import MoatRules

/// `#define` constants, C arrays, properties set once, and the parameters a file exports as sinks.
extension ConstantResolverTests {
    static func findings(_ files: [(String, String)], rules: Set<String> = ["MOAT-CRYP-202", "MOAT-CRYP-204", "MOAT-NET-208"]) throws -> [Finding] {
        try RuleExampleHarness.scan(files: files).findings.filter { rules.contains($0.ruleId) }
            .sorted { ($0.location.path, $0.location.line, $0.location.column) < ($1.location.path, $1.location.line, $1.location.column) }
    }

    static func places(_ findings: [Finding]) -> [String] {
        findings.map { "\($0.ruleId) \(($0.location.path as NSString).lastPathComponent):\($0.location.line):\($0.location.column)" }
    }

    @Test func macrosBecomeConstantGlobalsOfTheFile() {
        let file = DataflowTestSupport.parse("""
        #define kEncryptionKey @"0123456789abcdef"
        #define AES_IV  "fedcba9876543210" // the IV
        #define kLegacy kTLSProtocol1
        #define MAX(a, b) ((a) > (b) ? (a) : (b))
        #define LONG_KEY @"abc" \\
            @"def"
        #define BEGIN {
        #define kRuntime [KeyStore currentKey]
        int x = 1;
        """, name: "Keys.m")
        #expect(file.macros.map(\.name) == ["kEncryptionKey", "AES_IV", "kLegacy", "kRuntime"])
        #expect(file.macros.map { file.text($0.initializer!.range) } == [#"@"0123456789abcdef""#, #""fedcba9876543210""#, "kTLSProtocol1", "[KeyStore currentKey]"])
        #expect(file.macros[1].initializer?.range.start.column == 17)
        // Macros are not declarations: no other rule sees them.
        #expect(file.declarations.flatMap(\.flattenedVariables).map(\.name) == ["x"])
        // Exported to the files that include the header.
        let exported = ConstantExporter.constants(of: file)
        #expect(exported.map { "\($0.name)=\($0.value) @\($0.location.line)" } == [
            "kEncryptionKey=text(\"0123456789abcdef\") @1", "AES_IV=text(\"fedcba9876543210\") @2", "kLegacy=symbol(\"kTLSProtocol1\") @3",
        ])
    }

    @Test func definesAndCArraysReachCommonCrypto() throws {
        let findings = try Self.findings([("Cipher.m", """
        #define kEncryptionKey @"0123456789abcdef"
        #define AES_IV "fedcba9876543210"
        static const char kSalt[] = "pepper-and-salt!";
        - (void)encrypt:(NSData *)data into:(NSMutableData *)output {
            size_t moved = 0;
            CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [kEncryptionKey UTF8String], 16, AES_IV,
                    data.bytes, data.length, output.mutableBytes, output.length, &moved);
            uint8_t iv[16] = {0};
            unsigned char key[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a };
            CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key, sizeof(key), iv,
                    data.bytes, data.length, output.mutableBytes, output.length, &moved);
        }
        - (void)derive:(NSString *)password into:(uint8_t *)derived {
            CCKeyDerivationPBKDF(kCCPBKDF2, password.UTF8String, password.length, (const uint8_t *)kSalt, sizeof(kSalt) - 1,
                                 kCCPRFHmacAlgSHA256, 100000, derived, 32);
        }
        - (void)randomized:(NSData *)data into:(NSMutableData *)output {
            uint8_t iv[16] = {0};
            uint8_t salt[16] = {0};
            arc4random_buf(iv, sizeof(iv));
            CCRandomGenerateBytes(salt, sizeof(salt));
            size_t moved = 0;
            CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [self.key bytes], 16, iv,
                    data.bytes, data.length, output.mutableBytes, output.length, &moved);
            CCKeyDerivationPBKDF(kCCPBKDF2, "pw", 2, salt, sizeof(salt), kCCPRFHmacAlgSHA256, 100000, output.mutableBytes, 32);
        }
        """)])
        #expect(Self.places(findings) == [
            "MOAT-CRYP-202 Cipher.m:1:24", "MOAT-CRYP-204 Cipher.m:2:16", "MOAT-CRYP-204 Cipher.m:3:29",
            "MOAT-CRYP-204 Cipher.m:8:22", "MOAT-CRYP-202 Cipher.m:9:27",
        ])
        #expect(findings[0].message == "A literal is used as the key of `CCCrypt`: it is the same in every copy of the app and readable from the binary. Generate the key at run time and keep it in the Keychain.")
        #expect(findings[0].related.map { "\($0.location.line) \($0.message)" } == ["6 used as the key of `CCCrypt` here", "1 `kEncryptionKey` is defined here"])
        #expect(findings[3].message.hasPrefix("A literal is used as the IV of `CCCrypt`: an IV must differ for every message"))
        #expect(findings[3].related.map { "\($0.location.line) \($0.message)" } == ["10 used as the IV of `CCCrypt` here", "8 `iv` is set here"])
        // Values never in the clear.
        #expect(findings.allSatisfy { !($0.evidence ?? "").contains("0123456789abcdef") })
    }

    @Test func aHeaderDefineIsFollowedIntoTheFileThatIncludesIt() throws {
        let findings = try Self.findings([("Keys.h", "#define kStoreKey @\"s3cr3t-st0re-k3y-0123456789abcdef\"\n"), ("Store.m", """
        #import "Keys.h"
        - (void)open:(RLMRealmConfiguration *)config {
            [config setEncryptionKey:[kStoreKey dataUsingEncoding:NSUTF8StringEncoding]];
        }
        """)])
        #expect(Self.places(findings) == ["MOAT-CRYP-202 Store.m:3:30"])
        #expect(findings.first?.message.hasPrefix("The key of `Realm encryptionKey` is a literal written in Keys.h:1:") == true)
    }

    @Test func aPropertySetExactlyOnceIsAConstant() throws {
        let findings = try Self.findings([("Vault.swift", """
        import CryptoKit
        final class Vault {
            private var keyData: Data
            private var nonceData = Data(base64Encoded: "AAECAwQFBgcICQoL")!
            private var changing = Data("0123456789abcdef0123456789abcdef".utf8)
            private let fixed: Data
            init() {
                keyData = Data("vault-master-key-0123456789abcdef".utf8)
                fixed = Data("fixed-key-set-in-init-0123456789".utf8)
            }
            func rotate(_ keychain: Keychain) { changing = keychain.data(forKey: "k") ?? Data() }
            func seal(_ data: Data) throws -> [Data?] {
                [try AES.GCM.seal(data, using: SymmetricKey(data: keyData), nonce: AES.GCM.Nonce(data: nonceData)).combined,
                 try AES.GCM.seal(data, using: SymmetricKey(data: self.changing)).combined,
                 try AES.GCM.seal(data, using: SymmetricKey(data: fixed)).combined]
            }
        }
        """)])
        #expect(Self.places(findings) == ["MOAT-CRYP-204 Vault.swift:4:49", "MOAT-CRYP-202 Vault.swift:8:24", "MOAT-CRYP-202 Vault.swift:9:22"])
        #expect(findings[1].related.map { "\($0.location.line) \($0.message)" } == ["13 used as the key of `SymmetricKey(data:)` here", "8 `keyData` is set here, its only assignment"])
        // Set by something the file does not show: a memberwise initializer, decoding, a property wrapper.
        let quiet = try Self.findings([("Settings.swift", """
        import CryptoKit
        import SwiftUI
        struct SealConfiguration {
            var key = "default-key-0123456789abcdef0123"
            func symmetricKey() -> SymmetricKey { SymmetricKey(data: Data(key.utf8)) }
        }
        struct StoredConfiguration: Codable {
            var key = "default-key-0123456789abcdef0123"
            func symmetricKey() -> SymmetricKey { SymmetricKey(data: Data(self.key.utf8)) }
        }
        struct SettingsView: View {
            @AppStorage("key") var key = "default-key-0123456789abcdef0123"
            var body: some View { Text(seal(key)) }
        }
        func seal(_ configuration: SealConfiguration, _ stored: StoredConfiguration) -> SymmetricKey {
            _ = SymmetricKey(data: Data(stored.key.utf8))
            return SymmetricKey(data: Data(configuration.key.utf8))
        }
        extension SettingsView {
            func seal(_ text: String) -> String { _ = SymmetricKey(data: Data(key.utf8)); return text }
        }
        """)])
        #expect(quiet.isEmpty, "\(quiet.map(\.message))")
    }

    @Test func anObjectiveCPropertySetOnceInInitIsAConstant() throws {
        let findings = try Self.findings([("Cipher.m", """
        @interface Cipher : NSObject
        @property (nonatomic, copy) NSString *key;
        @property (nonatomic, copy) NSString *other;
        @end
        @implementation Cipher
        - (instancetype)init {
            if (self = [super init]) { _key = @"0123456789abcdef"; _other = @"fedcba9876543210"; }
            return self;
        }
        - (void)setUp:(NSString *)value { self.other = value; }
        - (void)encrypt:(NSData *)data into:(NSMutableData *)output {
            size_t moved = 0;
            CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [self.key UTF8String], 16, NULL,
                    data.bytes, data.length, output.mutableBytes, output.length, &moved);
            CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, [self.other UTF8String], 16, NULL,
                    data.bytes, data.length, output.mutableBytes, output.length, &moved);
        }
        @end
        """)])
        #expect(Self.places(findings) == ["MOAT-CRYP-202 Cipher.m:7:39"])
    }

    @Test func parametersThatReachASinkAreExportedWithTheirRoleAndTheWayToTheSink() throws {
        let unit = SourceUnit(code: DataflowTestSupport.parse("""
        enum CryptoHelper {
            static func encrypt(_ data: Data, key: String) throws -> Data? {
                let keyData = key.data(using: .utf8)!
                return try AES.GCM.seal(data, using: SymmetricKey(data: keyData)).combined
            }
            private static func hidden(_ key: Data) -> SymmetricKey { SymmetricKey(data: key) }
        }
        func configure(_ configuration: URLSessionConfiguration, maximum: tls_protocol_version_t) {
            configuration.tlsMaximumSupportedProtocolVersion = maximum
        }
        struct Box {
            init(key: Data) { _ = SymmetricKey(data: key) }
        }
        """, name: "CryptoHelper.swift"))
        var sink = FindingSink(rule: HardcodedCryptoKeyRule.description)
        HardcodedCryptoKeyRule().check(unit, &sink)
        var tls = FindingSink(rule: WeakTLSVersionRule.description)
        WeakTLSVersionRule().check(unit, &tls)
        let facts = try #require(unit.factsForOtherFiles)
        #expect(facts.constantSinks.map { "\($0.function.owner ?? "-").\($0.function.fullName)#\($0.parameter) \($0.role) \($0.api) @\($0.location.line) \($0.steps.map(\.location.line))" } == [
            "CryptoHelper.encrypt(_:key:)#1 key SymmetricKey(data:) @4 [3]", "-.configure(_:maximum:)#1 TLS version tlsMaximumSupportedProtocolVersion @9 []",
        ])
        // `hidden` is private; `Box.init` is called by its type's name. The facts coding carries them, in the index.
        let encoded = FactsCoding.encode(facts)
        #expect(FactsCoding.decode(encoded) == facts)
        #expect(FactsCoding.decodeIndex(encoded)?.constantSinks == facts.constantSinks)
        // The linker gives them to the files that name the function (not to test code).
        let caller = DataflowFacts()
        let contexts = CrossFileLinker(facts: [facts, caller, caller, caller], paths: ["CryptoHelper.swift", "Caller.swift", "Other.swift", "Tests/HelperTests.swift"],
                                       mentions: { index, name in index != 2 && name == "encrypt" }).contexts()
        #expect(contexts[1]?.constantSinks.map { "\($0.location.path):\($0.location.line) \($0.function.name)" } == ["CryptoHelper.swift:4 encrypt"])
        #expect(contexts[0] == nil && contexts[2] == nil && contexts[3] == nil)
    }
}
