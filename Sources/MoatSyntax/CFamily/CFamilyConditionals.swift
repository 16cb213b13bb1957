// Decides, for every `#if` group, how the parser sees it.
//
// A group whose every clause is balanced (braces, parentheses, brackets, `@interface`…`@end`) is kept as
// structure: the parser turns it into a `ConditionalBlock` where it sits between statements or declarations.
// A group that splits a construct cannot nest cleanly:
// - when every clause leaves the same things open (`#if A` `if (x) {` `#else` `if (y) {` `#endif`), only
//   the first clause is kept, so the braces that follow still match, as in one real configuration;
// - otherwise all clauses are kept inline (as if every condition were true) and the directives vanish.
// Header guards (`#ifndef X` + `#define X`) are inlined too. Runs in one pass with a stack, so deep or
// unterminated nesting costs nothing extra.

struct CBalance {
    var delta = 0
    var low = 0

    mutating func add(_ step: Int) {
        delta += step
        low = min(low, delta)
    }

    mutating func append(_ other: CBalance) {
        low = min(low, delta + other.low)
        delta += other.delta
    }
}

struct CBalanceSummary {
    var braces = CBalance()
    var parentheses = CBalance()
    var brackets = CBalance()
    var containers = CBalance()

    var isBalanced: Bool {
        [braces, parentheses, brackets, containers].allSatisfy { $0.delta == 0 && $0.low >= 0 }
    }

    func hasSameDelta(as other: CBalanceSummary) -> Bool {
        braces.delta == other.braces.delta && parentheses.delta == other.parentheses.delta
            && brackets.delta == other.brackets.delta && containers.delta == other.containers.delta
    }

    mutating func append(_ other: CBalanceSummary) {
        braces.append(other.braces)
        parentheses.append(other.parentheses)
        brackets.append(other.brackets)
        containers.append(other.containers)
    }
}

enum CConditionalResolver {
    private struct OpenGroup {
        var clauseStarts: [Int]
        var summaries: [CBalanceSummary] = []
        var current = CBalanceSummary()
        var hasElse = false
        var isGuard: Bool
    }

    /// Returns the tokens the parser sees, with `partner` links between the directives kept as structure.
    static func resolve(_ tokens: [CToken], problems: inout [(offset: Int, message: String)]) -> [CToken] {
        let count = tokens.count
        var removal = [Int32](repeating: 0, count: count + 1)
        func remove(_ from: Int, _ through: Int) {
            guard from <= through, from >= 0, through < count else { return }
            removal[from] += 1
            removal[through + 1] -= 1
        }
        var stack: [OpenGroup] = []

        func close(_ group: OpenGroup, endIndex: Int?) -> CBalanceSummary {
            var clauses = group.summaries + [group.current]
            if !group.hasElse { clauses.append(CBalanceSummary()) }
            let first = clauses[0]
            if endIndex != nil, !group.isGuard, clauses.allSatisfy(\.isBalanced) {
                return CBalanceSummary()
            }
            if let endIndex, !group.isGuard, group.clauseStarts.count > 1,
               clauses.dropFirst().allSatisfy({ $0.hasSameDelta(as: first) }) {
                remove(group.clauseStarts[0], group.clauseStarts[0])
                remove(group.clauseStarts[1], endIndex)
                return first
            }
            for start in group.clauseStarts { remove(start, start) }
            if let endIndex { remove(endIndex, endIndex) }
            var total = CBalanceSummary()
            for clause in clauses { total.append(clause) }
            return total
        }

        for index in 0..<count {
            let token = tokens[index]
            switch token.kind {
            case .directive:
                switch token.directive {
                case .ifGroup:
                    stack.append(OpenGroup(clauseStarts: [index], isGuard: token.isHeaderGuard))
                case .elseIf, .elseClause:
                    guard var group = stack.popLast() else {
                        problems.append((token.start, "#else or #elif without #if"))
                        remove(index, index)
                        continue
                    }
                    group.summaries.append(group.current)
                    group.current = CBalanceSummary()
                    group.clauseStarts.append(index)
                    if token.directive == .elseClause { group.hasElse = true }
                    stack.append(group)
                case .endIf:
                    guard let group = stack.popLast() else {
                        problems.append((token.start, "#endif without #if"))
                        remove(index, index)
                        continue
                    }
                    let effective = close(group, endIndex: index)
                    if !stack.isEmpty { stack[stack.count - 1].current.append(effective) }
                case .none:
                    remove(index, index)
                }
            default:
                guard !stack.isEmpty else { continue }
                let step = balanceStep(tokens, index)
                switch step.0 {
                case 0: stack[stack.count - 1].current.braces.add(step.1)
                case 1: stack[stack.count - 1].current.parentheses.add(step.1)
                case 2: stack[stack.count - 1].current.brackets.add(step.1)
                case 3: stack[stack.count - 1].current.containers.add(step.1)
                default: break
                }
            }
        }
        while let group = stack.popLast() {
            if let start = group.clauseStarts.first { problems.append((tokens[start].start, "#if without #endif")) }
            let effective = close(group, endIndex: nil)
            if !stack.isEmpty { stack[stack.count - 1].current.append(effective) }
        }

        var kept: [CToken] = []
        kept.reserveCapacity(count)
        var running: Int32 = 0
        for index in 0..<count {
            running += removal[index]
            if running <= 0 { kept.append(tokens[index]) }
        }
        linkPartners(&kept)
        return kept
    }

    /// (dimension, step): 0 braces, 1 parentheses, 2 brackets, 3 Objective-C containers; -1 for none.
    private static func balanceStep(_ tokens: [CToken], _ index: Int) -> (Int, Int) {
        let token = tokens[index]
        switch token.kind {
        case .punct:
            switch token.text {
            case "{": return (0, 1)
            case "}": return (0, -1)
            case "(": return (1, 1)
            case ")": return (1, -1)
            case "[": return (2, 1)
            case "]": return (2, -1)
            default: return (-1, 0)
            }
        case .atWord:
            switch token.text {
            case "@interface", "@implementation": return (3, 1)
            case "@end": return (3, -1)
            case "@protocol":
                var next = index + 1
                while next < tokens.count, tokens[next].kind == .directive { next += 1 }
                guard next < tokens.count, tokens[next].kind == .identifier else { return (-1, 0) }
                var after = next + 1
                while after < tokens.count, tokens[after].kind == .directive { after += 1 }
                if after < tokens.count, tokens[after].isPunct(";") || tokens[after].isPunct(",") { return (-1, 0) }
                return (3, 1)
            default: return (-1, 0)
            }
        default:
            return (-1, 0)
        }
    }

    private static func linkPartners(_ tokens: inout [CToken]) {
        var open: [Int] = []
        for index in tokens.indices where tokens[index].kind == .directive {
            switch tokens[index].directive {
            case .ifGroup:
                open.append(index)
            case .elseIf, .elseClause:
                if let previous = open.popLast() {
                    tokens[previous].partner = index
                    open.append(index)
                }
            case .endIf:
                if let previous = open.popLast() { tokens[previous].partner = index }
            case .none:
                break
            }
        }
    }
}
