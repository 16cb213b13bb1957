import Foundation

/// A node of the YAML subset XcodeGen specs are written in: block mappings and sequences by indentation,
/// plain and quoted scalars, flow sequences and simple flow mappings. Anchors, tags and multi-document
/// streams are not read; block scalars (`|`, `>`) are kept as text. Every node keeps its line.
public struct YAMLNode: Sendable {
    public enum Value: Sendable {
        case scalar(String)
        case list([YAMLNode])
        case map([(key: String, line: Int, value: YAMLNode)])
    }

    public var value: Value
    public var line: Int

    public var string: String? {
        if case .scalar(let text) = value { return text }
        return nil
    }

    public var list: [YAMLNode]? {
        if case .list(let items) = value { return items }
        return nil
    }

    public var entries: [(key: String, line: Int, value: YAMLNode)]? {
        if case .map(let entries) = value { return entries }
        return nil
    }

    public subscript(_ key: String) -> YAMLNode? {
        entries?.first { $0.key == key }?.value
    }
}

/// A tolerant reader for that subset. It never fails: what it cannot read becomes a scalar or is skipped.
public enum YAMLSubset {
    struct Line {
        var indent: Int
        var text: Substring
        var number: Int
    }

    public static func parse(_ text: String) -> YAMLNode {
        var lines: [Line] = []
        var blockIndent: Int?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = line.prefix { $0 == " " }.count
            let content = stripComment(line.dropFirst(indent))
            // Lines of a block scalar (`script: |`) are more indented than its key: skipped.
            if let block = blockIndent {
                if content.isEmpty || indent > block { continue }
                blockIndent = nil
            }
            if content.isEmpty || content == "---" || content == "..." { continue }
            if content.hasSuffix("|") || content.hasSuffix(">") || content.hasSuffix("|-") || content.hasSuffix(">-") {
                if content.contains(": ") || content.hasPrefix("- ") { blockIndent = indent }
            }
            lines.append(Line(indent: indent, text: content, number: index + 1))
        }
        var position = 0
        guard !lines.isEmpty else { return YAMLNode(value: .map([]), line: 1) }
        return block(&lines, &position, indent: lines[0].indent, depth: 0)
    }

    /// Removes a comment: `#` at the start or after a space, outside quotes; trims trailing spaces.
    static func stripComment(_ text: Substring) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                if previous == " " || previous == ":" || previous == "-" || previous == "[" || previous == "," || index == text.startIndex { quote = character }
            } else if character == "#", previous == " " || index == text.startIndex {
                return trimTrailing(text[..<index])
            }
            previous = character
        }
        return trimTrailing(text)
    }

    static func trimTrailing(_ text: Substring) -> Substring {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)] == " " || text[text.index(before: end)] == "\t" {
            end = text.index(before: end)
        }
        return text[..<end]
    }

    static func block(_ lines: inout [Line], _ position: inout Int, indent: Int, depth: Int) -> YAMLNode {
        let first = lines[position]
        guard depth < 64 else {
            // Too deep: skip the rest of this block.
            while position < lines.count, lines[position].indent >= indent { position += 1 }
            return YAMLNode(value: .scalar(""), line: first.number)
        }
        if first.text == "-" || first.text.hasPrefix("- ") {
            var items: [YAMLNode] = []
            while position < lines.count, lines[position].indent == indent,
                  lines[position].text == "-" || lines[position].text.hasPrefix("- ") {
                let line = lines[position]
                let rest = line.text.dropFirst(1).drop { $0 == " " }
                if rest.isEmpty {
                    position += 1
                    if position < lines.count, lines[position].indent > indent {
                        items.append(block(&lines, &position, indent: lines[position].indent, depth: depth + 1))
                    } else {
                        items.append(YAMLNode(value: .scalar(""), line: line.number))
                    }
                    continue
                }
                // The item's content starts a block at the column it is written at.
                let column = indent + (line.text.count - rest.count)
                lines[position] = Line(indent: column, text: rest, number: line.number)
                items.append(block(&lines, &position, indent: column, depth: depth + 1))
            }
            return YAMLNode(value: .list(items), line: first.number)
        }
        if let (key, value) = keyValue(first.text) {
            var entries: [(key: String, line: Int, value: YAMLNode)] = []
            _ = key
            _ = value
            while position < lines.count, lines[position].indent == indent,
                  !(lines[position].text == "-" || lines[position].text.hasPrefix("- ")),
                  let (key, value) = keyValue(lines[position].text) {
                let line = lines[position]
                position += 1
                if !value.isEmpty, !(value == "|" || value == ">" || value == "|-" || value == ">-") {
                    entries.append((key, line.number, inline(value, line: line.number)))
                } else if position < lines.count, lines[position].indent > indent
                            || (lines[position].indent == indent && (lines[position].text == "-" || lines[position].text.hasPrefix("- "))) {
                    entries.append((key, line.number, block(&lines, &position, indent: lines[position].indent, depth: depth + 1)))
                } else {
                    entries.append((key, line.number, YAMLNode(value: .scalar(""), line: line.number)))
                }
            }
            // Lines this block cannot read (more indented, not a key) are skipped.
            while position < lines.count, lines[position].indent > indent { position += 1 }
            if position < lines.count, lines[position].indent == indent, keyValue(lines[position].text) == nil,
               !(lines[position].text == "-" || lines[position].text.hasPrefix("- ")) {
                position += 1
            }
            return YAMLNode(value: .map(entries), line: first.number)
        }
        position += 1
        return inline(first.text, line: first.number)
    }

    /// `key: value` or `key:`; the key may be quoted. nil when the line is not a mapping entry.
    static func keyValue(_ text: Substring) -> (String, Substring)? {
        var key: String
        var rest: Substring
        if let open = text.first, open == "\"" || open == "'" {
            guard let close = text.dropFirst().firstIndex(of: open) else { return nil }
            key = String(text[text.index(after: text.startIndex)..<close])
            rest = text[text.index(after: close)...]
            guard rest.first == ":" else { return nil }
            rest = rest.dropFirst()
        } else {
            if text.first == "[" || text.first == "{" { return nil }
            guard let colon = findKeyColon(text) else { return nil }
            key = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
            rest = text[text.index(after: colon)...]
        }
        guard !key.isEmpty else { return nil }
        return (key, rest.drop { $0 == " " || $0 == "\t" })
    }

    /// The first `:` followed by a space or the end of the line.
    static func findKeyColon(_ text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == ":" {
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " || text[next] == "\t" { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A value on one line: a quoted or plain scalar, `[a, b]`, `{a: b, c: d}`.
    static func inline(_ text: Substring, line: Int) -> YAMLNode {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
            let inner = trimmed.dropFirst().dropLast()
            let items = splitFlow(inner).map { inline($0, line: line) }
            return YAMLNode(value: .list(items), line: line)
        }
        if trimmed.hasPrefix("{"), trimmed.hasSuffix("}") {
            let inner = trimmed.dropFirst().dropLast()
            var entries: [(key: String, line: Int, value: YAMLNode)] = []
            for part in splitFlow(inner) {
                if let (key, value) = keyValue(part) { entries.append((key, line, inline(value, line: line))) }
            }
            return YAMLNode(value: .map(entries), line: line)
        }
        return YAMLNode(value: .scalar(unquote(trimmed)), line: line)
    }

    static func splitFlow(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var quote: Character?
        var start = text.startIndex
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts.map { Substring($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
    }

    static func unquote(_ text: String) -> String {
        if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}

/// An XcodeGen project spec (`project.yml` and the files it includes), read as the Xcode project XcodeGen
/// would generate from it: its targets with their type, the source folders they compile (with their
/// `excludes`/`includes` patterns), the Info.plist and entitlements they use (`info`, `entitlements`, and
/// the `INFOPLIST_FILE`/`CODE_SIGN_ENTITLEMENTS` settings of the spec or of its `configFiles`), their
/// dependencies. A project generated by XcodeGen usually has no `.xcodeproj` committed; without this
/// reader its files would form units by folder, and code compiled by the app target from another folder
/// would be judged against the wrong Info.plist.
///
/// Settings written in the spec itself are kept when they decide what a target is made of (Info.plist,
/// entitlements, generation of the Info.plist, SDK, bundle identifier, product name, compilation
/// conditions); a target whose spec sets other `INFOPLIST_KEY_…` values has an incomplete Info.plist, so
/// checks for something *missing* stay quiet on it.
public enum XcodeGenSpec {
    /// Largest spec file read; at most this many files are included.
    public static let maximumSize = 1024 * 1024
    public static let maximumIncludes = 64

    static let keptSettings: Set<String> = ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS", "GENERATE_INFOPLIST_FILE", "SDKROOT",
                                            "PRODUCT_BUNDLE_IDENTIFIER", "PRODUCT_NAME", "SWIFT_ACTIVE_COMPILATION_CONDITIONS",
                                            "GCC_PREPROCESSOR_DEFINITIONS", "IPHONEOS_DEPLOYMENT_TARGET", "MACOSX_DEPLOYMENT_TARGET",
                                            "WATCHOS_DEPLOYMENT_TARGET", "TVOS_DEPLOYMENT_TARGET", "XROS_DEPLOYMENT_TARGET",
                                            "SUPPORTED_PLATFORMS"]

    /// Whether a file name is an XcodeGen spec Moat reads (`project.yml`, `project.yaml`).
    public static func isSpecFileName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "project.yml" || lower == "project.yaml"
    }

    /// Reads the spec at `url` (display path `path`) and the files it includes, all inside its folder.
    /// nil when the file is not an XcodeGen spec (no `targets`, no `include`).
    public static func load(data: Data, url: URL, path: String) throws -> XcodeProject? {
        guard data.count <= maximumSize else {
            throw XcodeProjectError("XcodeGen spec is \(data.count) bytes, larger than the \(maximumSize)-byte limit")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw XcodeProjectError("XcodeGen spec is not UTF-8 text") }
        let folderURL = url.deletingLastPathComponent()
        // A generated project committed beside its spec is read instead (the same targets, read exactly).
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: folderURL.path)) ?? []
        if siblings.contains(where: { $0.hasSuffix(".xcodeproj")
            && FileManager.default.fileExists(atPath: folderURL.appendingPathComponent($0 + "/project.pbxproj").path) }) {
            return nil
        }
        let root = YAMLSubset.parse(text)
        guard root.entries != nil, root["targets"] != nil || root["include"] != nil else { return nil }
        var warnings: [String] = []
        // Specs: (project-relative folder of the spec, project-relative path, root node).
        var specs: [(folder: String, file: String, node: YAMLNode)] = [("", (path as NSString).lastPathComponent, root)]
        var pending: [(from: String, node: YAMLNode, depth: Int)] = [("", root, 0)]
        var seen: Set<String> = [(path as NSString).lastPathComponent]
        while let (from, node, depth) = pending.first {
            pending.removeFirst()
            guard depth < 8 else { continue }
            let includes = node["include"]?.list ?? node["include"].map { [$0] } ?? []
            for include in includes {
                guard let relative = include.string ?? include["path"]?.string, !relative.isEmpty else { continue }
                let file = XcodeProject.normalize(from.isEmpty ? relative : from + "/" + relative)
                guard !relative.hasPrefix("/"), !file.hasPrefix(".."), specs.count < maximumIncludes,
                      seen.insert(file).inserted else {
                    if relative.hasPrefix("/") || file.hasPrefix("..") { warnings.append("included spec '\(relative)' is outside the project folder and was not read") }
                    continue
                }
                let fileURL = folderURL.appendingPathComponent(file)
                let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path)
                guard let size = (attributes?[.size] as? NSNumber)?.intValue, size <= maximumSize,
                      let data = FileManager.default.contents(atPath: fileURL.path), let text = String(data: data, encoding: .utf8) else {
                    warnings.append("cannot read included spec '\(file)'")
                    continue
                }
                let node = YAMLSubset.parse(text)
                let folder = (file as NSString).deletingLastPathComponent
                specs.append((folder, file, node))
                pending.append((folder, node, depth + 1))
            }
        }
        // Configurations: `configs:` of the project spec, Debug and Release otherwise.
        var configurationNames: [String] = []
        for spec in specs {
            for entry in spec.node["configs"]?.entries ?? [] where !configurationNames.contains(entry.key) {
                configurationNames.append(entry.key)
            }
        }
        if configurationNames.isEmpty { configurationNames = ["Debug", "Release"] }
        func specPath(_ value: String, in folder: String) -> String? {
            guard !value.isEmpty, !value.hasPrefix("/"), !value.contains("$") else { return nil }
            let resolved = XcodeProject.normalize(folder.isEmpty ? value : folder + "/" + value)
            return resolved.hasPrefix("..") ? nil : resolved
        }
        func configFiles(_ node: YAMLNode?, in folder: String) -> [String: String] {
            var result: [String: String] = [:]
            for entry in node?.entries ?? [] {
                if let value = entry.value.string, let resolved = specPath(value, in: folder) { result[entry.key] = resolved }
            }
            return result
        }
        var projectFiles: [String: String] = [:]
        for spec in specs { projectFiles.merge(configFiles(spec.node["configFiles"], in: spec.folder)) { old, _ in old } }
        let projectConfigurations = configurationNames.map { name in
            BuildConfiguration(id: "project-" + name, name: name, settings: [:], baseConfigurationPath: projectFiles[name])
        }
        let usesCocoaPods = FileManager.default.fileExists(atPath: folderURL.appendingPathComponent("Podfile").path)
        var targets: [XcodeTarget] = []
        var names = Set<String>()
        for spec in specs {
            for entry in spec.node["targets"]?.entries ?? [] where names.insert(entry.key).inserted {
                targets.append(target(named: entry.key, line: entry.line, node: entry.value, spec: spec,
                                      configurationNames: configurationNames, folderURL: folderURL,
                                      usesCocoaPods: usesCocoaPods, specPath: specPath, configFiles: configFiles))
            }
        }
        let packages = specs.flatMap { spec in
            (spec.node["packages"]?.entries ?? []).map { $0.value["url"]?.string ?? $0.value["path"]?.string ?? $0.key }
        }
        let directory = (path as NSString).deletingLastPathComponent
        let project = XcodeProject(path: path, projectDirectory: directory, targets: targets,
                                   projectConfigurations: projectConfigurations,
                                   defaultConfigurationName: root["options"]?["defaultConfig"]?.string,
                                   packageReferences: packages, root: OpenStepNode(value: .dictionary([]), line: 1, column: 1),
                                   specName: root["name"]?.string)
        project.readConfigurationFiles(sourceRoot: folderURL)
        for warning in warnings { project.addWarning(warning) }
        return project
    }

    static func target(named name: String, line: Int, node: YAMLNode, spec: (folder: String, file: String, node: YAMLNode),
                       configurationNames: [String], folderURL: URL, usesCocoaPods: Bool,
                       specPath: (String, String) -> String?, configFiles: (YAMLNode?, String) -> [String: String]) -> XcodeTarget {
        let type = node["type"]?.string ?? ""
        let productType = type.isEmpty ? "" : "com.apple.product-type." + type
        let platform = (node["platform"]?.string ?? node["platform"]?.list?.first?.string ?? "iOS").lowercased()
        let sdk: String = switch platform {
        case "macos": "macosx"
        case "watchos": "watchos"
        case "tvos": "appletvos"
        case "visionos": "xros"
        default: "iphoneos"
        }
        // Settings: `settings: {base: {...}, configs: {Debug: {...}}}` or the settings written directly.
        var common: [String: BuildSetting] = [
            "SDKROOT": BuildSetting(name: "SDKROOT", value: sdk, values: [sdk], line: line, column: 1),
        ]
        var perConfiguration: [String: [String: BuildSetting]] = [:]
        var generatesUnknownKeys = false
        func collect(_ node: YAMLNode?, into settings: inout [String: BuildSetting]) {
            for entry in node?.entries ?? [] where !["base", "configs", "groups"].contains(entry.key) {
                let value = entry.value.string ?? (entry.value.list ?? []).compactMap(\.string).joined(separator: " ")
                if entry.key.hasPrefix("INFOPLIST_KEY_") { generatesUnknownKeys = true }
                guard keptSettings.contains(entry.key) else { continue }
                var resolved = value
                // Paths in the spec's own settings are relative to the project folder, as in Xcode.
                if entry.key == "INFOPLIST_FILE" || entry.key == "CODE_SIGN_ENTITLEMENTS" { resolved = XcodeProject.normalize(value) }
                settings[entry.key] = BuildSetting(name: entry.key, value: resolved, values: [resolved], line: entry.line, column: 1)
            }
        }
        // The deployment target: the target's `deploymentTarget`, else the spec's `options.deploymentTarget`
        // for the platform (`iOS: "15.0"`); a setting written in `settings` wins.
        let platformKey = ["ios": "iOS", "macos": "macOS", "watchos": "watchOS", "tvos": "tvOS", "visionos": "visionOS"][platform] ?? "iOS"
        let deploymentSetting = ["macosx": "MACOSX_DEPLOYMENT_TARGET", "watchos": "WATCHOS_DEPLOYMENT_TARGET",
                                 "appletvos": "TVOS_DEPLOYMENT_TARGET", "xros": "XROS_DEPLOYMENT_TARGET"][sdk] ?? "IPHONEOS_DEPLOYMENT_TARGET"
        let deploymentNode = node["deploymentTarget"]?.string != nil ? node["deploymentTarget"]
            : node["deploymentTarget"]?[platformKey] ?? spec.node["options"]?["deploymentTarget"]?[platformKey]
        if let deploymentNode, let version = deploymentNode.string {
            common[deploymentSetting] = BuildSetting(name: deploymentSetting, value: version, values: [version],
                                                     line: deploymentNode.line, column: 1)
        }
        let settingsNode = node["settings"]
        collect(settingsNode, into: &common)
        collect(settingsNode?["base"], into: &common)
        for entry in settingsNode?["configs"]?.entries ?? [] {
            var settings: [String: BuildSetting] = [:]
            collect(entry.value, into: &settings)
            perConfiguration[entry.key.lowercased(), default: [:]].merge(settings) { _, new in new }
        }
        if settingsNode?["groups"] != nil { generatesUnknownKeys = true }
        // `info:` and `entitlements:` name files relative to the spec.
        if let info = node["info"]?["path"]?.string, let resolved = specPath(info, spec.folder) {
            common["INFOPLIST_FILE"] = BuildSetting(name: "INFOPLIST_FILE", value: resolved, values: [resolved],
                                                    line: node["info"]?.line ?? line, column: 1)
            if node["info"]?["properties"] != nil,
               !FileManager.default.fileExists(atPath: folderURL.appendingPathComponent(resolved).path) { generatesUnknownKeys = true }
        }
        if let entitlements = node["entitlements"]?["path"]?.string, let resolved = specPath(entitlements, spec.folder) {
            common["CODE_SIGN_ENTITLEMENTS"] = BuildSetting(name: "CODE_SIGN_ENTITLEMENTS", value: resolved, values: [resolved],
                                                            line: node["entitlements"]?.line ?? line, column: 1)
        }
        let files = configFiles(node["configFiles"], spec.folder)
        let configurations = configurationNames.map { configuration -> BuildConfiguration in
            var settings = common
            settings.merge(perConfiguration[configuration.lowercased()] ?? [:]) { _, new in new }
            return BuildConfiguration(id: name + "-" + configuration, name: configuration, settings: settings,
                                      baseConfigurationPath: files[configuration], hasUnreadBaseConfiguration: generatesUnknownKeys)
        }
        // Sources: folders (with glob excludes/includes) and single files.
        var sourceFiles: [String] = []
        var resourceFiles: [String] = []
        var folders: [SynchronizedFolder] = []
        let sourceItems = node["sources"]?.list ?? node["sources"].map { [$0] } ?? []
        for item in sourceItems {
            guard let raw = item.string ?? item["path"]?.string, let resolved = specPath(raw, spec.folder) else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folderURL.appendingPathComponent(resolved).path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let excludes = (item["excludes"]?.list ?? []).compactMap(\.string)
                let includes = (item["includes"]?.list ?? []).compactMap(\.string)
                folders.append(SynchronizedFolder(path: resolved, excluded: [], excludedPatterns: excludes,
                                                  includedPatterns: includes.isEmpty ? nil : includes))
            } else if item["buildPhase"]?.string == "resources" || !compiledExtensions.contains((resolved as NSString).pathExtension.lowercased()) {
                resourceFiles.append(resolved)
            } else {
                sourceFiles.append(resolved)
            }
        }
        var thirdParty: [String] = []
        var dependencies: [String] = []
        for dependency in node["dependencies"]?.list ?? [] {
            if let target = dependency["target"]?.string { dependencies.append(target) }
            for key in ["package", "carthage"] { if let value = dependency[key]?.string { thirdParty.append(value) } }
            if let framework = dependency["framework"]?.string { thirdParty.append((framework as NSString).lastPathComponent) }
        }
        if usesCocoaPods && (productType.contains("application") || productType.contains("extension")) { thirdParty.append("CocoaPods") }
        var target = XcodeTarget(id: name, name: name, productName: nil, productType: productType, configurations: configurations,
                                 defaultConfigurationName: nil, sourceFiles: sourceFiles, resourceFiles: resourceFiles,
                                 synchronizedFolders: folders, thirdPartyDependencies: thirdParty, dependencyTargetIds: dependencies,
                                 line: line)
        target.specPath = spec.file
        return target
    }

    static let compiledExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "cxx", "h", "hh", "hpp", "metal", "intentdefinition"]
}

/// Glob patterns as XcodeGen's `excludes` and `includes` write them: `*` and `?` within one path
/// component, `**` for any number of components.
public enum PathGlob {
    /// Whether `path` (components separated by `/`) or one of the folders above it matches `pattern`.
    public static func matchesPathOrAncestor(_ pattern: String, _ path: String) -> Bool {
        let patternParts = pattern.split(separator: "/").map(String.init).filter { $0 != "." }
        let pathParts = path.split(separator: "/").map(String.init)
        guard !patternParts.isEmpty else { return false }
        for count in stride(from: pathParts.count, through: 1, by: -1) where match(patternParts[...], pathParts[..<count]) {
            return true
        }
        return false
    }

    static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            var tail = path
            while true {
                if match(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        }
        guard let component = path.first, matchComponent(Array(first), Array(component)) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    static func matchComponent(_ pattern: [Character], _ text: [Character]) -> Bool {
        var memo: [Int: Bool] = [:]
        func go(_ p: Int, _ t: Int) -> Bool {
            let key = p * (text.count + 1) + t
            if let known = memo[key] { return known }
            let result: Bool
            if p == pattern.count {
                result = t == text.count
            } else if pattern[p] == "*" {
                result = go(p + 1, t) || (t < text.count && go(p, t + 1))
            } else if t < text.count && (pattern[p] == "?" || pattern[p] == text[t]) {
                result = go(p + 1, t + 1)
            } else {
                result = false
            }
            memo[key] = result
            return result
        }
        return go(0, 0)
    }
}
