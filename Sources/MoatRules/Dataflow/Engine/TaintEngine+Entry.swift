import MoatCore
import MoatSyntax

extension TaintEngine {
    // MARK: Sources on parameters

    func parameterSources(_ function: FunctionDeclaration, owner: TypeDeclaration?) -> [Int: [(SourceHit, Set<String>?)]] {
        var result: [Int: [(SourceHit, Set<String>?)]] = [:]
        for entry in TaintSources.parameterSources[function.fullName] ?? [] where entry.index < function.parameters.count {
            let hit = SourceHit(kind: entry.source.kind, description: entry.source.description, range: function.nameRange,
                                confidence: entry.source.confidence, isSystemFileURL: entry.source.isSystemFileURL)
            result[entry.index, default: []].append((hit, entry.latent))
        }
        if !xmlDocuments.isEmpty, let indexes = XMLDocuments.callbackIndexes[function.fullName] {
            for index in indexes where index < function.parameters.count {
                for document in xmlDocuments {
                    let hit = SourceHit(kind: document.kind, description: "\(XMLDocuments.phrase) \(document.description)",
                                        range: function.nameRange, confidence: document.confidence)
                    result[index, default: []].append((hit, nil))
                }
            }
        }
        if let source = TaintSources.exportSource, let owner, exportedMethods.contains(function.fullName),
           exportingTypes.contains(owner.name) {
            for (index, parameter) in function.parameters.enumerated() {
                let hit = SourceHit(kind: source.kind, description: "`\(parameter.name)`, a parameter of the JSExport method \(function.fullName), called by page JavaScript",
                                    range: function.nameRange, confidence: source.confidence)
                result[index, default: []].append((hit, nil))
            }
        }
        if result.isEmpty, let source = TaintSources.remoteHandlerSource, let sender = RemoteHandlers.senderIndex(of: function) {
            let senderName = function.parameters[sender].name
            for (index, parameter) in function.parameters.enumerated() where index != sender {
                let hit = SourceHit(kind: source.kind,
                                    description: "`\(parameter.name)`, received by \(function.fullName) from the remote sender `\(senderName)`",
                                    range: function.nameRange, confidence: source.confidence)
                result[index, default: []].append((hit, nil))
            }
        }
        return result
    }

    /// Protocols that inherit JSExport, their methods, and the types that adopt them; with what other
    /// files declared for the types of this one.
    func collectJavaScriptExports() {
        for export in context?.javaScriptExports ?? [] {
            exportingTypes.insert(export.name)
            exportedMethods.formUnion(export.methods)
        }
        var protocols: Set<String> = []
        for type in file.allTypes where (type.kind == .protocol || type.kind == .objcProtocol) && type.inherits.contains(TaintSources.javaScriptExportProtocol) {
            protocols.insert(type.name)
            for function in type.functions { exportedMethods.insert(function.fullName) }
        }
        guard !protocols.isEmpty else { return }
        for type in file.allTypes where !protocols.isDisjoint(with: type.inherits) { exportingTypes.insert(type.name) }
    }

    /// Untrusted values other files pass to this function: its parameters become sources.
    func applySeeds(_ function: FunctionDeclaration, owner: TypeDeclaration?, _ state: inout InterpreterState) {
        guard !seedsByFunction.isEmpty, let seeds = seedsByFunction[signature(function, owner: owner)] else { return }
        var allConfirmed = true
        for seed in seeds where seed.parameter < function.parameters.count {
            let parameter = function.parameters[seed.parameter]
            let suffix = ", passed to \(function.fullName) from \(seed.call.shortDescription)"
            guard var taint = seed.taint.sourceTaint(at: function.nameRange, suffix: suffix, passedIn: true) else { continue }
            taint.append(PathStep(range: function.nameRange, message: "passed to \(function.fullName) as `\(parameter.name)`", external: seed.call))
            taint.lineage = [parameter.name]
            if let type = parameter.type, Transfers.isInertType(type) { taint.checks.insert(.numeric) }
            state.vars[parameter.name, default: []].merge([taint])
            allConfirmed = allConfirmed && seed.confirmed
        }
        if allConfirmed, !seeds.isEmpty { state.confirmed = true }
    }

    /// XML documents other files parse with an instance of this function's type as the delegate: the
    /// content parameters of its callbacks are sources, with the parse as a step.
    func applyXMLDocuments(_ function: FunctionDeclaration, owner: TypeDeclaration?, _ state: inout InterpreterState) {
        guard !xmlDocumentsByType.isEmpty, let owner, let uses = xmlDocumentsByType[owner.name],
              let indexes = XMLDocuments.callbackIndexes[function.fullName] else { return }
        for index in indexes where index < function.parameters.count {
            let parameter = function.parameters[index]
            for use in uses {
                var document = use.document
                guard let description = document.source?.description else { continue }
                document.source?.description = "\(XMLDocuments.phrase) \(description)"
                guard var taint = document.sourceTaint(at: function.nameRange, suffix: " (\(use.location.shortDescription))",
                                                       passedIn: true) else { continue }
                taint.append(PathStep(range: function.nameRange,
                                      message: "parsed with a `\(owner.name)` as the delegate, whose \(function.fullName) receives it as `\(parameter.name)`",
                                      external: use.location))
                taint.lineage = [parameter.name]
                state.vars[parameter.name, default: []].merge([taint])
            }
        }
    }

    func signature(_ function: FunctionDeclaration, owner: TypeDeclaration?) -> FunctionSignature {
        let style: CallStyle = !file.language.isCFamily ? .swift : owner != nil ? .objc : .c
        return FunctionSignature(style: style, name: function.name, fullName: function.fullName,
                                 labels: function.parameters.map(\.label), owner: owner?.name)
    }

    func collectPropertyTypes() {
        for type in file.allTypes {
            for member in type.members {
                guard case .variable(let variable) = member else { continue }
                if let declared = variable.type {
                    propertyTypes[type.name, default: [:]][variable.name] = declared
                } else if let initializer = variable.initializer, case .call(let callee, _, _) = initializer.unwrapped.kind,
                          let first = callee.nameChain.first, first.first?.isUppercase == true {
                    propertyTypes[type.name, default: [:]][variable.name] = first
                } else if let initializer = variable.initializer, case .member(let base?, let name) = initializer.unwrapped.kind,
                          SensitiveSources.singletonNames.contains(name), let typeName = base.unwrapped.accessPath,
                          typeName.first?.isUppercase == true, !typeName.contains(".") {
                    // A type's singleton (`let store = UserDefaults.standard`) is of that type.
                    propertyTypes[type.name, default: [:]][variable.name] = typeName
                }
            }
        }
    }

    /// The type a receiver has, when it can be told: `Importer.shared`, a local or property declared with
    /// a type.
    func receiverType(_ receiver: Expression, owner: String?, _ state: InterpreterState) -> String? {
        guard let path = receiver.accessPath else { return nil }
        var components = path.split(separator: ".").map(String.init)
        if components.first == "self" { components.removeFirst() }
        guard let root = components.first else { return nil }
        if root.first?.isUppercase == true { return root }
        var type: String?
        if let declared = state.types[root] {
            type = declared
        } else if let owner, let declared = propertyTypes[owner]?[root] {
            type = declared
        }
        guard components.count == 1, let type else { return nil }
        let core = type.filter { !"?!* ".contains($0) }
        guard core.first?.isUppercase == true, core.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return core
    }

}
