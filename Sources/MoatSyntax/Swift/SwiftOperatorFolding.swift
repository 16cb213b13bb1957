internal import SwiftSyntax
internal import SwiftParser
internal import SwiftOperators

/// The standard operators' precedence groups as a small table: which of two adjacent operators applies
/// first. SwiftOperators answers the same question by searching its precedence graph, building syntax for
/// every relation it follows, which made folding the largest cost of lowering. The standard table is
/// written here in code (`standard`): reading it from `OperatorTable.standardOperators` meant printing that
/// table as Swift source and parsing it with SwiftParser at every scan's start (27 M instructions, about 1 %
/// of a cold scan of 30 files). `SwiftLoweringEquivalenceTests` checks (`SwiftFrontEnd.builtInOperatorTableMatchesSwiftOperators`) that it equals the table read from
/// SwiftOperators (`init(_:)`), so a toolchain whose standard operators change fails a test.
struct OperatorPrecedenceTable: Sendable, Equatable {
    enum Order: Sendable {
        /// The left operator applies first: `(a op1 b) op2 c`.
        case left
        /// The right operator applies first: `a op1 (b op2 c)`.
        case right
        /// Not comparable (unrelated groups, or one non-associative group): such sequences are left to
        /// SwiftOperators, which reports and recovers.
        case none
    }

    /// Infix operator spelling → group index.
    private(set) var groupOfOperator: [String: Int] = [:]
    private(set) var groupNames: [String] = []
    /// orders[left * groupNames.count + right]
    private(set) var orders: [Order] = []

    /// One precedence group: its associativity and the groups it is directly higher than.
    struct Group {
        let name: String
        let associativity: Order
        let higherThan: [String]
    }

    /// The Swift standard library's precedence groups and infix operators (as `OperatorTable.standardOperators`
    /// declares them; groups in its order, which fixes the group indices).
    static let standard = OperatorPrecedenceTable(
        groups: [
            Group(name: "AdditionPrecedence", associativity: .left, higherThan: ["RangeFormationPrecedence"]),
            Group(name: "AssignmentPrecedence", associativity: .right, higherThan: []),
            Group(name: "BitwiseShiftPrecedence", associativity: .none, higherThan: ["MultiplicationPrecedence"]),
            Group(name: "CastingPrecedence", associativity: .none, higherThan: ["NilCoalescingPrecedence"]),
            Group(name: "ComparisonPrecedence", associativity: .none, higherThan: ["LogicalConjunctionPrecedence"]),
            Group(name: "DefaultPrecedence", associativity: .none, higherThan: ["TernaryPrecedence"]),
            Group(name: "FunctionArrowPrecedence", associativity: .right, higherThan: ["AssignmentPrecedence"]),
            Group(name: "LogicalConjunctionPrecedence", associativity: .left,
                  higherThan: ["LogicalDisjunctionPrecedence"]),
            Group(name: "LogicalDisjunctionPrecedence", associativity: .left, higherThan: ["TernaryPrecedence"]),
            Group(name: "MultiplicationPrecedence", associativity: .left, higherThan: ["AdditionPrecedence"]),
            Group(name: "NilCoalescingPrecedence", associativity: .right, higherThan: ["ComparisonPrecedence"]),
            Group(name: "RangeFormationPrecedence", associativity: .none, higherThan: ["CastingPrecedence"]),
            Group(name: "TernaryPrecedence", associativity: .right, higherThan: ["FunctionArrowPrecedence"]),
        ],
        operators: [
            ("ComparisonPrecedence", ["!=", "!==", "<", "<=", "==", "===", ">", ">=", "~="]),
            ("MultiplicationPrecedence", ["%", "&", "&*", "*", "/"]),
            ("AssignmentPrecedence", ["%=", "&*=", "&+=", "&-=", "&<<=", "&=", "&>>=", "*=", "+=", "-=", "/=",
                                      "<<=", ">>=", "^=", "|="]),
            ("LogicalConjunctionPrecedence", ["&&"]),
            ("AdditionPrecedence", ["&+", "&-", "+", "-", "^", "|"]),
            ("BitwiseShiftPrecedence", ["&<<", "&>>", "<<", ">>"]),
            ("RangeFormationPrecedence", ["...", "..<"]),
            ("NilCoalescingPrecedence", ["??"]),
            ("LogicalDisjunctionPrecedence", ["||"]),
        ])

    /// A table from groups (in index order) and, per group name, its infix operators.
    init(groups: [Group], operators: [(group: String, names: [String])]) {
        var associativity: [String: Order] = [:]
        var higher: [String: Set<String>] = [:]
        for group in groups {
            groupNames.append(group.name)
            associativity[group.name] = group.associativity
            for other in group.higherThan { higher[group.name, default: []].insert(other) }
        }
        var index: [String: Int] = [:]
        for (position, name) in groupNames.enumerated() { index[name] = position }
        for (group, names) in operators {
            guard let position = index[group] else { continue }
            for name in names { groupOfOperator[name] = position }
        }
        fillOrders(associativity: associativity, higher: higher)
    }

    /// The table read from a SwiftOperators table by printing it as Swift source and parsing that (slow:
    /// used by tests to check `standard`).
    init(_ table: OperatorTable) {
        // The table prints as Swift source (precedencegroup and operator declarations).
        let file = Parser.parse(source: table.description)
        var associativity: [String: Order] = [:]
        var higher: [String: Set<String>] = [:]
        var operatorNames: [String] = []
        for item in file.statements {
            if let group = item.item.as(PrecedenceGroupDeclSyntax.self) {
                let name = group.name.text
                groupNames.append(name)
                associativity[name] = Order.none
                for attribute in group.groupAttributes {
                    switch attribute {
                    case .precedenceGroupAssociativity(let node):
                        switch node.value.text {
                        case "left": associativity[name] = .left
                        case "right": associativity[name] = .right
                        default: associativity[name] = Order.none
                        }
                    case .precedenceGroupRelation(let relation):
                        for other in relation.precedenceGroups {
                            if relation.higherThanOrLowerThanLabel.text == "higherThan" {
                                higher[name, default: []].insert(other.name.text)
                            } else {
                                higher[other.name.text, default: []].insert(name)
                            }
                        }
                    default:
                        break
                    }
                }
            } else if let declaration = item.item.as(OperatorDeclSyntax.self),
                      declaration.fixitySpecifier.tokenKind == .keyword(.infix) {
                operatorNames.append(declaration.name.text)
            }
        }
        var index: [String: Int] = [:]
        for (position, name) in groupNames.enumerated() { index[name] = position }
        for name in operatorNames {
            if let group = table.infixOperator(named: name)?.precedenceGroup, let position = index[group] {
                groupOfOperator[name] = position
            }
        }
        fillOrders(associativity: associativity, higher: higher)
    }

    private mutating func fillOrders(associativity: [String: Order], higher: [String: Set<String>]) {
        // `a` is above `b` when `b` can be reached from `a` through higher-than relations.
        func reaches(_ from: String, _ target: String) -> Bool {
            var seen: Set<String> = [from]
            var pending = [from]
            while let current = pending.popLast() {
                for next in higher[current] ?? [] where !seen.contains(next) {
                    if next == target { return true }
                    seen.insert(next)
                    pending.append(next)
                }
            }
            return false
        }
        for left in groupNames {
            for right in groupNames {
                if left == right {
                    orders.append(associativity[left] ?? Order.none)
                } else if reaches(left, right) {
                    orders.append(.left)
                } else if reaches(right, left) {
                    orders.append(.right)
                } else {
                    orders.append(Order.none)
                }
            }
        }
    }

    /// Whether `standard` equals the table read from `OperatorTable.standardOperators` (for tests).
    static var standardMatchesSwiftOperators: Bool {
        standard == OperatorPrecedenceTable(OperatorTable.standardOperators)
    }

    func group(named name: String) -> Int? { groupNames.firstIndex(of: name) }

    func order(_ left: Int, _ right: Int) -> Order { orders[left * groupNames.count + right] }
}

extension SwiftFrontEnd {
    /// Whether the operator precedence table written in code equals the one SwiftOperators declares (for tests).
    public static var builtInOperatorTableMatchesSwiftOperators: Bool { OperatorPrecedenceTable.standardMatchesSwiftOperators }
}

/// A sequence expression folded by `SwiftLowering.fastFold`: nodes over the sequence's elements.
struct FoldedSequence {
    struct Node {
        /// Index of the operator element, or -1 for an operand.
        var op: Int
        /// Operand element index (for an operand), else child node indices.
        var left: Int
        var right: Int
        /// Element indices of the first and last operands covered (for the range).
        var first: Int
        var last: Int
    }

    let elements: [ExprSyntax]
    var nodes: [Node]
    var root: Int
}

extension SwiftLowering {
    /// Folds a sequence of standard operators (binary operators, `=`, `? :`, `as`, `is`) the way
    /// `OperatorTable.standardOperators.foldSingle` does, without building syntax. Nil for anything else
    /// (unknown or incomparable operators, arrows, `try`/`await`/`unsafe` operands that SwiftOperators
    /// hoists, recovered trees): the caller then uses SwiftOperators.
    func fastFold(_ sequence: SequenceExprSyntax) -> FoldedSequence? {
        if reference || sequence.hasError { return nil }
        let table = OperatorPrecedenceTable.standard
        let elements = Array(sequence.elements)
        let count = elements.count
        guard count >= 3, count % 2 == 1, count <= Self.maximumFoldedElements else { return nil }
        // Group of each operator element (indexed by element).
        var groups = [Int](repeating: -1, count: count)
        guard let assignment = table.group(named: "AssignmentPrecedence"),
              let ternary = table.group(named: "TernaryPrecedence"),
              let casting = table.group(named: "CastingPrecedence") else { return nil }
        var index = 1
        while index < count {
            let element = elements[index]
            if let binary = element.as(BinaryOperatorExprSyntax.self) {
                guard let group = table.groupOfOperator[binary.operator.text] else { return nil }
                groups[index] = group
            } else if element.is(AssignmentExprSyntax.self) {
                groups[index] = assignment
            } else if element.is(UnresolvedTernaryExprSyntax.self) {
                groups[index] = ternary
            } else if element.is(UnresolvedAsExprSyntax.self) || element.is(UnresolvedIsExprSyntax.self) {
                guard elements[index + 1].is(TypeExprSyntax.self) else { return nil }
                groups[index] = casting
            } else {
                return nil
            }
            // SwiftOperators moves a `try`/`await`/`unsafe` left operand above the operation.
            let operand = elements[index - 1]
            if operand.is(TryExprSyntax.self) || operand.is(AwaitExprSyntax.self) || operand.is(UnsafeExprSyntax.self) {
                return nil
            }
            index += 2
        }
        var nodes: [FoldedSequence.Node] = []
        nodes.reserveCapacity(count)
        var operands: [Int] = [0]
        var operators: [Int] = []
        nodes.append(.init(op: -1, left: 0, right: -1, first: 0, last: 0))
        func reduce() {
            let op = operators.removeLast()
            let right = operands.removeLast()
            let left = operands.removeLast()
            nodes.append(.init(op: op, left: left, right: right, first: nodes[left].first, last: nodes[right].last))
            operands.append(nodes.count - 1)
        }
        index = 1
        while index < count {
            while let top = operators.last {
                // A cast's right side is its type: nothing that follows can take it.
                if groups[top] == casting {
                    reduce()
                    continue
                }
                switch table.order(groups[top], groups[index]) {
                case .left: reduce(); continue
                case .right: break
                case .none: return nil
                }
                break
            }
            operators.append(index)
            nodes.append(.init(op: -1, left: index + 1, right: -1, first: index + 1, last: index + 1))
            operands.append(nodes.count - 1)
            index += 2
        }
        while !operators.isEmpty { reduce() }
        guard operands.count == 1, let root = operands.first else { return nil }
        return FoldedSequence(elements: elements, nodes: nodes, root: root)
    }

    /// The statement of a folded sequence used as a statement (assignments become assignment statements).
    mutating func lowerFoldedStatement(_ folded: FoldedSequence) -> Statement {
        let root = folded.nodes[folded.root]
        let rootRange = foldedRange(folded, root)
        if root.op >= 0 {
            let op = folded.elements[root.op]
            var assignment: String?
            if op.is(AssignmentExprSyntax.self) {
                assignment = "="
            } else if let binary = op.as(BinaryOperatorExprSyntax.self), isCompoundAssignment(binary.operator.text) {
                assignment = binary.operator.text
            }
            if let assignment {
                return Statement(kind: .assignment(target: lowerFolded(folded, root.left), op: assignment,
                                                   value: lowerFolded(folded, root.right)), range: rootRange)
            }
        }
        return Statement(kind: .expression(lowerFolded(folded, folded.root)), range: rootRange)
    }

    private func foldedRange(_ folded: FoldedSequence, _ node: FoldedSequence.Node) -> SourceRange {
        range(from: folded.elements[node.first], to: folded.elements[node.last])
    }

    /// Lowers one node of a folded sequence as `lowerExpression` lowers the node SwiftOperators makes.
    mutating func lowerFolded(_ folded: FoldedSequence, _ index: Int) -> Expression {
        let node = folded.nodes[index]
        guard node.op >= 0 else { return lowerExpression(folded.elements[node.left]) }
        let nodeRange = foldedRange(folded, node)
        let op = folded.elements[node.op]
        if let binary = op.as(BinaryOperatorExprSyntax.self) {
            let lhs = lowerFolded(folded, node.left)
            let rhs = lowerFolded(folded, node.right)
            return Expression(kind: .binary(op: binary.operator.text, lhs: lhs, rhs: rhs), range: nodeRange)
        }
        if op.is(AssignmentExprSyntax.self) {
            let lhs = lowerFolded(folded, node.left)
            let rhs = lowerFolded(folded, node.right)
            return Expression(kind: .binary(op: "=", lhs: lhs, rhs: rhs), range: nodeRange)
        }
        if let ternary = op.as(UnresolvedTernaryExprSyntax.self) {
            return Expression(kind: .ternary(condition: lowerFolded(folded, node.left),
                                             then: lowerExpression(ternary.thenExpression),
                                             otherwise: lowerFolded(folded, node.right)), range: nodeRange)
        }
        let type = folded.elements[folded.nodes[node.right].left].as(TypeExprSyntax.self)
        let typeText = type.map { text($0.type) } ?? ""
        if let cast = op.as(UnresolvedAsExprSyntax.self) {
            return Expression(kind: .cast(operand: lowerFolded(folded, node.left), type: typeText,
                                          op: "as" + (cast.questionOrExclamationMark?.text ?? "")), range: nodeRange)
        }
        return Expression(kind: .cast(operand: lowerFolded(folded, node.left), type: typeText, op: "is"), range: nodeRange)
    }
}
