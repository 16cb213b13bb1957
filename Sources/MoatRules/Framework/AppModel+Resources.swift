import MoatCore
import MoatFormats
import MoatSyntax

/// Which units bundle a file that is not code: a Core Data model, a property list or JSON file copied as a
/// resource. A project target bundles it when its build phases list the file or a folder above it (a
/// model's `Model.xcdatamodeld/Model.xcdatamodel`), or a synchronized folder of the target holds it. A file
/// no project references belongs to the loose app unit whose files sit closest to it.
extension AppModel {
    public enum Bundling {
        /// These app or extension units bundle the file.
        case units([AppUnit])
        /// A target that is not an app or an extension bundles it (a framework, a package): code of any
        /// unit may use it.
        case shared
        /// No shipping target bundles it: only test targets, or nothing although a project exists.
        case notBundled
    }

    public func bundling(of path: String) -> Bundling {
        var projectUnits: [AppUnit] = []
        var referencedByProject = false
        var onlyTests = true
        for project in projects {
            guard let relative = project.projectRelativePath(path) else { continue }
            let folders = Self.selfAndAncestors(relative)
            for target in project.targets {
                let listed = folders.contains { target.sourceFiles.contains($0) || target.resourceFiles.contains($0) }
                    || target.synchronizedFolders.contains { $0.contains(relative) }
                guard listed else { continue }
                referencedByProject = true
                let isTest = target.productType.contains("unit-test") || target.productType.contains("ui-testing")
                if !isTest { onlyTests = false }
                if let unit = units.first(where: { $0.target?.id == target.id && $0.project?.path == project.path }) {
                    projectUnits.append(unit)
                }
            }
        }
        if !projectUnits.isEmpty { return .units(projectUnits) }
        if referencedByProject { return onlyTests ? .notBundled : .shared }
        let loose = units.filter(\.isLoose)
        if loose.isEmpty { return projects.isEmpty ? .shared : .notBundled }
        // The loose unit whose files share the longest folder prefix with the file.
        func shared(_ other: String) -> Int {
            let left = path.split(separator: "/").dropLast()
            let right = other.split(separator: "/").dropLast()
            return zip(left, right).prefix { $0 == $1 }.count
        }
        let scored = loose.map { unit -> (AppUnit, Int) in
            let paths = unit.sources.map(\.path) + unit.infoPlists.map(\.path)
            return (unit, paths.map(shared).max() ?? 0)
        }
        let best = scored.map(\.1).max() ?? 0
        return .units(scored.filter { $0.1 == best }.map(\.0))
    }

    /// `a/b/c` → `a/b/c`, `a/b`, `a`.
    static func selfAndAncestors(_ path: String) -> [String] {
        var result: [String] = []
        var current = Substring(path)
        while !current.isEmpty {
            result.append(String(current))
            guard let slash = current.lastIndex(of: "/") else { break }
            current = current[..<slash]
        }
        return result
    }

    /// The code that may use a file bundled this way, and the units it ships in; nil when it does not ship.
    public func context(of bundling: Bundling) -> (sources: [SourceSummary], units: [AppUnit])? {
        switch bundling {
        case .notBundled:
            return nil
        case .shared:
            return (sources, appUnits.isEmpty ? units : appUnits)
        case .units(let owners):
            var seen = Set<String>()
            let code = owners.flatMap { reachableSources(for: $0) }.filter { seen.insert($0.path).inserted }
            return (code, owners)
        }
    }
}

extension AppUnit {
    /// The entitlements files the shipping configurations sign with (every one for loose files).
    public var releaseEntitlements: [PropertyListDocument] {
        var seen = Set<String>()
        return releaseConfigurations.flatMap(\.entitlements).filter { seen.insert($0.path).inserted }
    }
}
