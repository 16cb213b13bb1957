import Foundation
import MoatRules
import MoatCore
import MoatFormats
import MoatSyntax

/// Every parser of untrusted bytes, callable with raw input. Used by the libFuzzer driver
/// (`Scripts/fuzz.sh`) and by the regression test that replays saved crash inputs, so both exercise
/// exactly the same code. An entry point must return normally for any input: throwing is fine,
/// trapping is a bug.
public enum FuzzEntryPoints {
    public static let all: [String: @Sendable (Data) -> Void] = [
        "plist": { data in _ = try? PropertyListParser.parse(data: data, path: "fuzz.plist") },
        "swift": { data in
            let source = String(decoding: data, as: UTF8.self)
            guard SwiftFrontEnd.refusalReason(source: source) == nil else { return }
            let file = SwiftFrontEnd.parse(source: source, path: "fuzz.swift")
            _ = SourceSummary(file: file)
        },
        "cfamily": { data in
            let source = String(decoding: data, as: UTF8.self)
            let file = CFamilyFrontEnd.parse(source: source, path: "fuzz.m", language: .objectiveC)
            _ = SourceSummary(file: file)
        },
        "zip": { data in
            guard let archive = try? ZipArchive(data: data) else { return }
            for entry in archive.entries.prefix(64) { _ = try? archive.read(entry) }
        },
        "macho": { data in
            guard let file = try? MachOFile(data: data) else { return }
            for image in file.images {
                _ = image.imports()
                _ = image.objcClassNames()
                _ = image.objcSelectorReferences()
                _ = image.cStringLiterals()
                _ = try? image.codeSignature()
            }
        },
        "provisioning-profile": { data in _ = try? ProvisioningProfile(data: data, path: "embedded.mobileprovision") },
        "ipa": { data in
            guard let app = try? BuiltApp(ipaData: data, displayName: "fuzz.ipa") else { return }
            for bundle in app.allBundles {
                _ = try? app.machO(of: bundle)
                _ = try? app.provisioningProfile(of: bundle)
            }
        },
        "built-app-scan": { data in
            // The built-app analysis with every rule: plists, signatures, profiles and binary rules.
            guard let app = try? BuiltApp(ipaData: data, displayName: "fuzz.ipa") else { return }
            _ = BuiltAppAnalysis(analyzer: Analyzer(rules: RuleRegistry.all)).analyze(app)
        },
        "macho-rules": { data in
            // A lone Mach-O through every binary rule.
            guard let file = try? MachOFile(data: data),
                  let binary = BinaryImage.make(path: "fuzz", role: .standalone, bundle: nil, file: file) else { return }
            _ = Analyzer(rules: RuleRegistry.all).analyze(binary)
        },
        "pbxproj": { data in
            // The project reader, then the app model and every app rule over it.
            guard let project = try? XcodeProject.parse(data: data, path: "Fuzz.xcodeproj/project.pbxproj") else { return }
            let app = AppModel(plists: [], sources: [], projects: [project])
            _ = Analyzer(rules: RuleRegistry.all).analyze(app)
            _ = app.surface
        },
        "interface-builder": { data in
            guard let document = try? InterfaceBuilderDocument.parse(data: data, path: "fuzz.storyboard") else { return }
            let analyzer = Analyzer(rules: RuleRegistry.all)
            _ = analyzer.analyze(document)
            _ = analyzer.analyze(AppModel(plists: [], sources: [], interfaceBuilderDocuments: [document]))
        },
        "core-data-model": { data in
            // The model reader, then every app rule over the model.
            guard let model = try? CoreDataModel.parse(data: data, path: "Fuzz.xcdatamodeld/Fuzz.xcdatamodel/contents") else { return }
            _ = Analyzer(rules: RuleRegistry.all).analyze(AppModel(plists: [], sources: [], coreDataModels: [model]))
        },
        "json": { data in
            // The JSON resource reader, then every app rule over it as a bundled resource.
            guard let document = try? JSONDocumentReader.parse(data: data, path: "fuzz.json") else { return }
            _ = Analyzer(rules: RuleRegistry.all).analyze(AppModel(plists: [document], sources: []))
        },
        "scan-file": { data in
            // The whole per-file pipeline on a Swift file: parse, every rule, summary.
            let source = String(decoding: data, as: UTF8.self)
            guard SwiftFrontEnd.refusalReason(source: source) == nil else { return }
            let analyzer = Analyzer(rules: RuleRegistry.all)
            _ = analyzer.analyze(SwiftFrontEnd.parse(source: source, path: "fuzz.swift"))
        },
    ]

    public static var names: [String] { all.keys.sorted() }
}
