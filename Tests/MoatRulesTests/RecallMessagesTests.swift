import Foundation
import Testing
import MoatCore
import MoatRules
import MoatScan

/// Issue 24 items 8, 9, 10 and 12: the messages and the way back of the findings those items added.
struct RecallMessagesTests {
    static func findings(_ files: [(name: String, content: String)], rule: String) throws -> [Finding] {
        try RuleExampleHarness.scan(files: files, onlyRule: rule).findings.filter { $0.ruleId == rule }
    }

    @Test func defaultTLSVersionIsReportedWithTheDefaultOnTheWay() throws {
        let findings = try Self.findings([("Factory.swift", """
        struct Factory {
            func make(timeout: Double = 30, minimum: tls_protocol_version_t = .TLSv10) -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocolVersion = minimum
                return URLSession(configuration: configuration)
            }
        }
        let session = Factory().make(timeout: 5)
        """)], rule: "MOAT-NET-208")
        #expect(findings.count == 1)
        #expect(findings.first?.location.line == 4)
        #expect(findings.first?.message.hasPrefix("`tlsMinimumSupportedProtocolVersion` is set to `TLSv10`, below TLS 1.2") == true)
        #expect(findings.first?.related.map(\.message) == ["`minimum` defaults to this"])
        #expect(findings.first?.related.map(\.location.line) == [2])
    }

    @Test func socketLevelsAreJudgedByKey() throws {
        let findings = try Self.findings([("Socket.m", """
        - (void)connect:(GCDAsyncSocket *)socket stream:(NSInputStream *)input {
            NSMutableDictionary *settings = [NSMutableDictionary dictionary];
            settings[GCDAsyncSocketSSLProtocolVersionMin] = @(kTLSProtocol11);
            settings[GCDAsyncSocketSSLProtocolVersionMax] = @(kTLSProtocol1);
            settings[GCDAsyncSocketManuallyEvaluateTrust] = @(kTLSProtocol1);
            [socket startTLS:settings];
            [input setProperty:NSStreamSocketSecurityLevelSSLv3 forKey:NSStreamSocketSecurityLevelKey];
            [input setProperty:NSStreamSocketSecurityLevelNegotiatedSSL forKey:NSStreamSocketSecurityLevelKey];
        }
        """)], rule: "MOAT-NET-208")
        #expect(findings.map(\.location.line) == [3, 4, 7])
        #expect(findings.map(\.message).map { String($0.prefix(while: { $0 != "," })) } == [
            "`GCDAsyncSocketSSLProtocolVersionMin` is set to `kTLSProtocol11`",
            "`GCDAsyncSocketSSLProtocolVersionMax` is set to `kTLSProtocol1`",
            "`NSStreamSocketSecurityLevelKey` is set to `NSStreamSocketSecurityLevelSSLv3`",
        ])
    }

    @Test func jsContextBlockReturningATokenNamesTheBlockAndTheValue() throws {
        let findings = try Self.findings([("Bridge.m", """
        #import <JavaScriptCore/JavaScriptCore.h>
        @implementation LBBridge
        - (void)install:(JSContext *)context {
            context[@"token"] = ^NSString *{ return self.authToken; };
            context[@"version"] = ^NSString *{ return self.appVersion; };
        }
        @end
        """)], rule: "MOAT-PLAT-214")
        #expect(findings.map(\.location.line) == [4])
        #expect(findings.first?.message.hasPrefix("The block `token` put into a JSContext returns `authToken`") == true)
    }

    @Test func homeMadeCipherKeyIsAnEncryptionKey() throws {
        let findings = try Self.findings([("Cipher.swift", """
        let masked = Scrambler.scramble(Data(pin.utf8), key: "kq8Zr2mW5tYh")
        let ordered = Sorter.sort(rows, key: "kq8Zr2mW5tYh")
        """)], rule: "MOAT-CRYP-203")
        #expect(findings.map(\.location.line) == [1])
        #expect(findings.first?.message.hasPrefix("A hard-coded encryption key is passed as `key` of `scramble`") == true)
    }
}
