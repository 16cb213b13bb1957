import MoatSyntax

/// Helpers shared by the C-family front-end tests.
enum CFamilyTestSupport {
    static func parse(_ source: String, _ language: SourceLanguage = .objectiveC, path: String = "Test.m") -> CodeFile {
        CFamilyFrontEnd.parse(source: source, path: path, language: language)
    }

    /// Every expression in the file, closures included, in walk order.
    static func expressions(_ file: CodeFile) -> [Expression] {
        var result: [Expression] = []
        file.forEachExpression { expression, _ in result.append(expression) }
        return result
    }

    static func calls(_ file: CodeFile) -> [Expression] {
        expressions(file).filter(\.isCall)
    }

    /// The first call whose name (selector for message sends) is `name`.
    static func call(_ file: CodeFile, _ name: String) -> Expression? {
        calls(file).first { $0.name == name }
    }

    static func statements(_ file: CodeFile) -> [Statement] {
        var result: [Statement] = []
        file.forEachStatement { statement, _ in result.append(statement) }
        return result
    }

    static func position(_ range: SourceRange) -> String { "\(range.start.line):\(range.start.column)" }

    /// "line:column" (1-based, UTF-8 columns) of the `occurrence`-th appearance of `needle` in `source`,
    /// found by plain text search so tests state positions by pointing at the code.
    static func locate(_ needle: String, in source: String, occurrence: Int = 1) -> String {
        let haystack = Array(source.utf8)
        let pattern = Array(needle.utf8)
        var seen = 0
        var offset = 0
        while offset + pattern.count <= haystack.count {
            if haystack[offset..<(offset + pattern.count)].elementsEqual(pattern) {
                seen += 1
                if seen == occurrence {
                    var line = 1
                    var lineStart = 0
                    for index in 0..<offset where haystack[index] == UInt8(ascii: "\n") {
                        line += 1
                        lineStart = index + 1
                    }
                    return "\(line):\(offset - lineStart + 1)"
                }
            }
            offset += 1
        }
        return "not found"
    }

    /// A compact rendering of an expression for assertions.
    static func render(_ expression: Expression?) -> String {
        guard let expression else { return "nil" }
        switch expression.kind {
        case .identifier(let name): return name
        case .member(let base, let name): return (base.map(render) ?? "") + "." + name
        case .call(let callee, let arguments, let isMessageSend):
            let list = arguments.map { ($0.label.map { $0 + ": " } ?? "") + render($0.value) }.joined(separator: ", ")
            return (isMessageSend ? "send " : "") + render(callee) + "(" + list + ")"
        case .subscriptAccess(let base, let arguments): return render(base) + "[" + arguments.map { render($0.value) }.joined(separator: ", ") + "]"
        case .stringLiteral: return "\"" + (expression.stringValue ?? "?") + "\""
        case .integerLiteral(let text): return text
        case .floatLiteral(let text): return text
        case .booleanLiteral(let value): return value ? "true" : "false"
        case .nilLiteral: return "nil"
        case .arrayLiteral(let elements): return "[" + elements.map(render).joined(separator: ", ") + "]"
        case .dictionaryLiteral(let pairs): return "[" + pairs.map { render($0.key) + ": " + render($0.value) }.joined(separator: ", ") + "]"
        case .closure(let parameters, let body): return "{(\(parameters.joined(separator: ", "))) \(body.statements.count) statements}"
        case .binary(let op, let lhs, let rhs): return "(" + render(lhs) + " " + op + " " + render(rhs) + ")"
        case .prefix(let op, let operand): return op + render(operand)
        case .postfix(let op, let operand): return render(operand) + op
        case .ternary(let condition, let then, let otherwise): return "(" + render(condition) + " ? " + render(then) + " : " + render(otherwise) + ")"
        case .cast(let operand, let type, let op): return "cast" + op + "<" + type + ">(" + render(operand) + ")"
        case .wrapped(let op, let operand): return "wrap" + op + "(" + render(operand) + ")"
        case .tuple(let arguments): return "tuple(" + arguments.map { render($0.value) }.joined(separator: ", ") + ")"
        case .typeValue(let name): return "type(" + name + ")"
        case .unknown(let text): return "unknown(" + text + ")"
        }
    }

    /// A compact outline of statements, for exploration and structural assertions.
    static func outline(_ statements: [Statement], indent: String = "") -> String {
        var lines: [String] = []
        for statement in statements {
            let at = position(statement.range)
            switch statement.kind {
            case .expression(let expression): lines.append("\(indent)expr@\(at) \(render(expression))")
            case .variable(let names, let type, let initializer, let isConstant):
                lines.append("\(indent)var@\(at) \(names.joined(separator: ",")): \(type ?? "?")\(isConstant ? " const" : "") = \(render(initializer))")
            case .assignment(let target, let op, let value): lines.append("\(indent)assign@\(at) \(render(target)) \(op) \(render(value))")
            case .ifStatement(let conditions, let then, let elseBranch):
                lines.append("\(indent)if@\(at) \(conditions.map { condition -> String in if case .other(let text, _) = condition { return "other(\(text))" }; return condition.expressions.map(render).joined() })")
                lines.append(outline(then.statements, indent: indent + "  "))
                if let elseBranch {
                    lines.append("\(indent)else")
                    lines.append(outline(elseBranch.statements, indent: indent + "  "))
                }
            case .guardStatement: lines.append("\(indent)guard")
            case .loop(let header, let variables, let body):
                lines.append("\(indent)loop@\(at) [\(variables.joined(separator: ","))] \(header.map(render).joined(separator: "; "))")
                lines.append(outline(body.statements, indent: indent + "  "))
            case .switchStatement(let subject, let cases):
                lines.append("\(indent)switch@\(at) \(render(subject))")
                for switchCase in cases {
                    lines.append("\(indent)  case \(switchCase.patterns.map(render).joined(separator: ", "))")
                    lines.append(outline(switchCase.body.statements, indent: indent + "    "))
                }
            case .returnStatement(let value): lines.append("\(indent)return@\(at) \(render(value))")
            case .throwStatement(let value): lines.append("\(indent)throw@\(at) \(render(value))")
            case .doStatement(let body, let catches):
                lines.append("\(indent)do@\(at)")
                lines.append(outline(body.statements, indent: indent + "  "))
                for clause in catches {
                    lines.append("\(indent)catch")
                    lines.append(outline(clause.body.statements, indent: indent + "  "))
                }
            case .deferStatement(let body): lines.append("\(indent)defer"); lines.append(outline(body.statements, indent: indent + "  "))
            case .block(let body):
                lines.append("\(indent)block@\(at)")
                lines.append(outline(body.statements, indent: indent + "  "))
            case .declaration: lines.append("\(indent)declaration@\(at)")
            case .conditional(let block):
                for clause in block.clauses {
                    lines.append("\(indent)#if \(clause.condition ?? "else")")
                    lines.append(outline(clause.elements, indent: indent + "  "))
                }
                lines.append("\(indent)#endif")
            case .other(let text): lines.append("\(indent)other@\(at) \(text)")
            }
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    static func outline(_ declarations: [Declaration], indent: String = "") -> String {
        var lines: [String] = []
        for declaration in declarations {
            switch declaration {
            case .type(let type):
                lines.append("\(indent)\(type.kind) \(type.name)@\(position(type.nameRange)) : \(type.inherits.joined(separator: ", ")) \(type.attributes)")
                lines.append(outline(type.members, indent: indent + "  "))
            case .function(let function):
                let parameters = function.parameters.map { "\($0.label ?? "_") \($0.name): \($0.type ?? "?")" }.joined(separator: ", ")
                lines.append("\(indent)func\(function.isStatic ? " static" : "") \(function.fullName)@\(position(function.nameRange)) (\(parameters)) -> \(function.returnType ?? "?") \(function.attributes)\(function.body == nil ? " ;" : "")")
                if let body = function.body { lines.append(outline(body.statements, indent: indent + "  ")) }
            case .variable(let variable):
                lines.append("\(indent)var \(variable.name)@\(position(variable.nameRange)): \(variable.type ?? "?") \(variable.attributes)\(variable.isConstant ? " const" : "") = \(render(variable.initializer))")
            case .conditional(let block):
                for clause in block.clauses {
                    lines.append("\(indent)#if \(clause.condition ?? "else")")
                    lines.append(outline(clause.elements, indent: indent + "  "))
                }
                lines.append("\(indent)#endif")
            }
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    static func outline(_ file: CodeFile) -> String {
        outline(file.declarations) + "\n--\n" + outline(file.statements)
    }
}
