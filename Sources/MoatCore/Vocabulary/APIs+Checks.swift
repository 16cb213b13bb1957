/// APIs whose use checks a value or asks the user (see `API`): what the dataflow check table
/// (`Checks.swift` in MoatRules) counts as an overflow check or a confirmation.
extension APIs {
    // MARK: Overflow checks

    /// Multiplications that report overflow: the Swift ones return the checked product, the C ones write
    /// it through their last `&out` argument.
    public static let overflowCheckedMultiplication = API(
        "Int.multipliedReportingOverflow(by:)", classes: ["FixedWidthInteger"],
        swift: ["multipliedReportingOverflow(by:)", "multipliedFullWidth(by:)"],
        cFunctions: ["os_mul_overflow", "__builtin_mul_overflow", "__builtin_umul_overflow", "__builtin_umull_overflow",
                     "__builtin_umulll_overflow", "__builtin_smul_overflow", "__builtin_smull_overflow", "__builtin_smulll_overflow",
                     "os_mul_and_add_overflow"])

    // MARK: Asking the user

    /// An alert created to ask the user.
    public static let alertCreation = API(
        "UIAlertController(title:message:preferredStyle:)", classes: ["UIAlertController"],
        swift: ["UIAlertController(title:message:preferredStyle:)"], selectors: ["alertControllerWithTitle:message:preferredStyle:"])

    /// An alert's action, whose handler runs when the user picks it.
    public static let alertAction = API(
        "UIAlertAction(title:style:handler:)", classes: ["UIAlertAction"],
        swift: ["UIAlertAction(title:style:handler:)"], selectors: ["actionWithTitle:style:handler:"])

    /// Local Authentication's prompt (Face ID, Touch ID, passcode), whose reply runs after the user answered.
    public static let localAuthenticationPrompt = API(
        "LAContext.evaluatePolicy(_:localizedReason:reply:)", classes: ["LAContext"],
        swift: ["evaluatePolicy(_:localizedReason:reply:)"], selectors: ["evaluatePolicy:localizedReason:reply:"])

    /// The system's permission prompts in Swift (camera, microphone, contacts, calendars), whose completion
    /// runs after the user answered. (The Objective-C selectors differ by class and are not listed.)
    public static let permissionPrompt = API(
        "AVCaptureDevice.requestAccess(for:completionHandler:)", classes: ["AVCaptureDevice", "CNContactStore", "EKEventStore"],
        swift: ["requestAccess(for:completionHandler:)", "requestAccess(to:completion:)"])

    /// A view controller presented modally; its completion runs once it is on screen.
    public static let viewControllerPresentation = API(
        "UIViewController.present(_:animated:completion:)", classes: ["UIViewController"],
        swift: ["present(_:animated:completion:)"], selectors: ["presentViewController:animated:completion:"])

    /// The APIs of this file, for `APIs.all`.
    static let checks: [API] = [
        overflowCheckedMultiplication, alertCreation, alertAction, localAuthenticationPrompt, permissionPrompt, viewControllerPresentation,
    ]
}
