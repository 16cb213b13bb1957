@testable import MoatTestSupport
import Foundation

/// A small built app as a list of files, written as an `.ipa` (in memory) or as folders (in a
/// temporary directory, for the folder readers).
enum AppFixture {
    static func infoPlist(executable: String?, identifier: String) -> Data {
        let executableEntry = executable.map { "<key>CFBundleExecutable</key><string>\($0)</string>" } ?? ""
        return Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>\(executableEntry)<key>CFBundleIdentifier</key><string>\(identifier)</string></dict></plist>
        """.utf8)
    }

    static func binaryInfoPlist(executable: String, identifier: String) -> Data {
        // swiftlint:disable:next force_try
        try! PropertyListSerialization.data(fromPropertyList: ["CFBundleExecutable": executable, "CFBundleIdentifier": identifier],
                                            format: .binary, options: 0)
    }

    /// A `NIBArchive` whose class table lists the names.
    static func nibArchive(classNames: [String]) -> Data {
        func varint(_ value: Int) -> [UInt8] {
            var value = value
            var out: [UInt8] = []
            while true {
                let byte = UInt8(value & 0x7f)
                value >>= 7
                if value == 0 { out.append(byte | 0x80); return out }
                out.append(byte)
            }
        }
        var table = ByteWriter()
        for (index, name) in classNames.enumerated() {
            let extras = index % 2
            table.bytes(varint(name.utf8.count + 1))
            table.bytes(varint(extras))
            for _ in 0..<extras { table.u32(6) }
            table.string(name, nul: true)
        }
        var out = ByteWriter()
        out.string("NIBArchive")
        out.u32(1); out.u32(10)
        for _ in 0..<6 { out.u32(0) }
        out.u32(UInt32(classNames.count)); out.u32(50)
        out.bytes(table.data)
        return out.data
    }

    /// An NSKeyedArchiver-style binary plist naming classes with `$classname`.
    static func keyedArchive(classNames: [String]) -> Data {
        let objects: [Any] = ["$null"] + classNames.map { ["$classname": $0, "$classes": [$0, "NSObject"]] as [String: Any] }
        // swiftlint:disable:next force_try
        return try! PropertyListSerialization.data(fromPropertyList: ["$archiver": "NSKeyedArchiver", "$version": 100000,
                                                                      "$objects": objects], format: .binary, options: 0)
    }

    static func executable(_ classNames: [String]) -> Data {
        var writer = MachOWriter()
        writer.commands = [
            .segment("__TEXT", [.strings("__objc_classname", classNames)]),
            .dylib(MachOWriter.loadDylib, "/usr/lib/libSystem.B.dylib"),
            .codeSignature(CodeSignatureWriter.sample()),
        ]
        return writer.build()
    }

    /// The files of `Demo.app`, relative to the app folder.
    static func appFiles(executableName: String? = "Demo") -> [(String, Data)] {
        [
            ("Info.plist", infoPlist(executable: executableName, identifier: "com.example.demo")),
            ("Demo", executable(["AppDelegate"])),
            ("embedded.mobileprovision", DERWriter.cms(Data(DERWriter.profilePlist(devices: ["a"], getTaskAllow: true).utf8))),
            ("PrivacyInfo.xcprivacy", Data("<plist version=\"1.0\"><dict/></plist>".utf8)),
            ("Base.lproj/Main.storyboardc/Info.plist", infoPlist(executable: nil, identifier: "storyboard")),
            ("Base.lproj/Main.storyboardc/UIViewController-abc.nib", nibArchive(classNames: ["UIViewController", "UIView", "UILabel"])),
            ("Base.lproj/Main.storyboardc/Login.nib/objects-13.0+.nib",
             keyedArchive(classNames: ["_TtC4Demo19LoginViewController", "UITextField"])),
            ("LaunchScreen.nib", Data("\u{0}\u{1}UIView\u{0}xx\u{0}NSLayoutConstraint\u{0}lower\u{2}UIImageView".utf8)),
            ("PlugIns/Share.appex/Info.plist", infoPlist(executable: "Share", identifier: "com.example.demo.share")),
            ("PlugIns/Share.appex/Share", executable(["ShareViewController"])),
            ("PlugIns/Share.appex/PrivacyInfo.xcprivacy", Data("<plist version=\"1.0\"><dict/></plist>".utf8)),
            ("PlugIns/Share.appex/Frameworks/Inner.framework/Info.plist", infoPlist(executable: "Inner", identifier: "inner")),
            ("PlugIns/Share.appex/Frameworks/Inner.framework/Inner", executable([])),
            ("Extensions/Widget.appex/Info.plist", infoPlist(executable: "Widget", identifier: "com.example.demo.widget")),
            ("Extensions/Widget.appex/Widget", executable([])),
            ("Frameworks/Kit.framework/Info.plist", binaryInfoPlist(executable: "Kit", identifier: "com.example.kit")),
            ("Frameworks/Kit.framework/Kit", executable(["KitObject"])),
            ("Frameworks/Kit.framework/Resources.bundle/PrivacyInfo.xcprivacy", Data("<plist version=\"1.0\"><dict/></plist>".utf8)),
            ("Frameworks/libswiftCore.dylib", executable([])),
            ("Watch/DemoWatch.app/Info.plist", infoPlist(executable: "DemoWatch", identifier: "com.example.demo.watch")),
            ("Watch/DemoWatch.app/DemoWatch", executable([])),
        ]
    }

    static func ipa(executableName: String? = "Demo") -> Data {
        var writer = ZipWriter()
        for (path, data) in appFiles(executableName: executableName) {
            writer.add("Payload/Demo.app/" + path, data, method: path.hasSuffix(".plist") ? .stored : .deflated)
        }
        writer.add("iTunesMetadata.plist", "<plist/>")
        writer.add("../evil.txt", "zip slip")
        var link = ZipWriter.Entry("Payload/Demo.app/link", Data("/etc/passwd".utf8), method: .stored)
        link.unixMode = 0o120777
        writer.entries.append(link)
        return writer.build()
    }

    /// Writes files under a folder.
    static func write(_ files: [(String, Data)], under folder: URL) throws {
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moat-binary-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
