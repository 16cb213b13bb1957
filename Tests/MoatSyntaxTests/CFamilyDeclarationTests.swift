import Testing
import MoatSyntax

private typealias Support = CFamilyTestSupport

@Suite struct CFamilyDeclarationTests {
    static let header = """
    //  LoginController.h
    #ifndef LoginController_h
    #define LoginController_h

    #import <UIKit/UIKit.h>
    @import WebKit;

    NS_ASSUME_NONNULL_BEGIN

    @class Session;
    @protocol LoginDelegate;

    FOUNDATION_EXPORT NSString *const LoginErrorDomain;
    UIKIT_EXTERN const CGFloat LoginDefaultHeight API_AVAILABLE(ios(10.0));

    typedef NS_ENUM(NSInteger, LoginState) {
        LoginStateIdle = 0,
        LoginStateBusy API_AVAILABLE(ios(13.0)),
        LoginStateDone = 1 << 2,
    };

    typedef NS_OPTIONS(NSUInteger, LoginOptions) {
        LoginOptionNone = 0,
        LoginOptionRemember = 1 << 0,
    };

    API_AVAILABLE(ios(12.0)) NS_SWIFT_NAME(Login)
    @interface LoginController<ObjectType> : UIViewController <UIWebViewDelegate, NSSecureCoding>
    {
        @private
        NSString *_password;
    }
    @property (nonatomic, weak, nullable) id<LoginDelegate> delegate;
    @property (nonatomic, copy) NSString *userName, *displayName;
    @property (class, nonatomic, readonly) LoginController *shared;
    @property (nonatomic, readonly, getter=isBusy) BOOL busy;
    @property (nonatomic, copy, nullable) void (^completion)(BOOL success, NSError * _Nullable error);
    - (instancetype)init NS_UNAVAILABLE;
    - (instancetype)initWithSession:(Session *)session NS_DESIGNATED_INITIALIZER;
    - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary<UIApplicationOpenURLOptionsKey, id> *)options;
    + (void)resetAllWithError:(NSError * _Nullable __autoreleasing *)error API_AVAILABLE(ios(11.0));
    @end

    @interface LoginController () <WKNavigationDelegate>
    @property (nonatomic, strong) WKWebView *webView;
    @end

    @interface LoginController (Analytics)
    - (void)track:(NSString *)event;
    @end

    @protocol LoginDelegate <NSObject>
    @required
    - (void)loginDidFinish:(LoginController *)controller;
    @optional
    - (void)login:(LoginController *)controller didFailWithError:(NSError *)error;
    @end

    NS_ASSUME_NONNULL_END

    #endif /* LoginController_h */
    """

    private func types(_ file: CodeFile) -> [TypeDeclaration] { file.allTypes }

    @Test func macroHeavyHeader() throws {
        let file = Support.parse(Self.header, .objectiveC, path: "LoginController.h")
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.imports == ["UIKit/UIKit.h", "WebKit"])
        #expect(file.statements.isEmpty)

        let types = file.allTypes
        #expect(types.map(\.kind) == [.enum, .enum, .objcInterface, .objcCategory, .objcCategory, .objcProtocol])
        #expect(types.map(\.name) == ["LoginState", "LoginOptions", "LoginController", "LoginController", "LoginController",
                                      "LoginDelegate"])

        let state = types[0]
        #expect(state.inherits == ["NSInteger"])
        #expect(state.variables.map(\.name) == ["LoginStateIdle", "LoginStateBusy", "LoginStateDone"])
        #expect(Support.position(state.nameRange) == Support.locate("LoginState)", in: Self.header))

        let interface = types[2]
        #expect(interface.inherits == ["UIViewController", "UIWebViewDelegate", "NSSecureCoding"])
        #expect(interface.adopts("UIWebViewDelegate"))
        #expect(Support.position(interface.nameRange) == Support.locate("LoginController<", in: Self.header))
        #expect(Support.position(interface.range) == Support.locate("@interface LoginController<", in: Self.header))
        #expect(interface.variables.map(\.name) == ["_password", "delegate", "userName", "displayName", "shared", "busy", "completion"])
        let properties = Dictionary(uniqueKeysWithValues: interface.variables.map { ($0.name, $0) })
        #expect(properties["_password"]?.type == "NSString *")
        #expect(properties["delegate"]?.type == "id<LoginDelegate>")
        #expect(properties["delegate"]?.attributes == ["nonatomic", "weak", "nullable"])
        #expect(properties["displayName"]?.type == "NSString *")
        #expect(properties["displayName"]?.attributes == ["nonatomic", "copy"])
        #expect(properties["shared"]?.isStatic == true)
        #expect(properties["busy"]?.attributes == ["nonatomic", "readonly", "getter=isBusy"])
        #expect(properties["completion"]?.type == "void (^)(BOOL success, NSError *error)")
        let userName = try #require(properties["userName"])
        #expect(Support.position(userName.nameRange) == Support.locate("userName", in: Self.header))

        let methods = interface.functions
        #expect(methods.map(\.fullName) == ["init", "initWithSession:", "application:openURL:options:", "resetAllWithError:"])
        #expect(methods.allSatisfy { $0.body == nil })
        #expect(methods[0].attributes == ["NS_UNAVAILABLE"])
        let openURL = methods[2]
        #expect(openURL.name == "application")
        #expect(!openURL.isStatic)
        #expect(openURL.returnType == "BOOL")
        #expect(openURL.parameters.map(\.label) == ["application", "openURL", "options"])
        #expect(openURL.parameters.map(\.name) == ["app", "url", "options"])
        #expect(openURL.parameters.map(\.type) == ["UIApplication *", "NSURL *", "NSDictionary<UIApplicationOpenURLOptionsKey, id> *"])
        #expect(Support.position(openURL.nameRange) == Support.locate("application:(UIApplication", in: Self.header))
        #expect(Support.position(openURL.range) == Support.locate("- (BOOL)application", in: Self.header))
        #expect(methods[3].isStatic)
        #expect(methods[3].parameters.first?.type == "NSError **")

        let extensionType = types[3]
        #expect(extensionType.inherits == ["WKNavigationDelegate"])
        #expect(extensionType.variables.first?.type == "WKWebView *")
        #expect(types[4].inherits.isEmpty)
        #expect(types[4].functions.map(\.fullName) == ["track:"])
        let delegate = types[5]
        #expect(delegate.inherits == ["NSObject"])
        #expect(delegate.functions.map(\.fullName) == ["loginDidFinish:", "login:didFailWithError:"])

        let globals = file.declarations.compactMap { declaration -> VariableDeclaration? in
            if case .variable(let variable) = declaration { return variable }
            return nil
        }
        #expect(globals.map(\.name) == ["LoginErrorDomain", "LoginDefaultHeight"])
        #expect(globals.map(\.type) == ["NSString *", "CGFloat"])
        #expect(globals.allSatisfy { $0.isConstant })
    }

    @Test func implementationMethodsHaveBodies() throws {
        let source = """
        @implementation AppDelegate

        - (BOOL)application:(UIApplication *)app openURL:(NSURL *)url options:(NSDictionary *)options {
            return [self handle:url];
        }

        + (instancetype)sharedInstance {
            static AppDelegate *instance;
            return instance;
        }

        static void helper(int count, char *names[]) { puts(names[0]); }

        - (void)viewDidLoad; {
            [super viewDidLoad];
        }
        @end
        """
        let file = Support.parse(source)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let type = try #require(file.allTypes.first)
        #expect(type.kind == .objcImplementation)
        #expect(type.name == "AppDelegate")
        let functions = file.allFunctions
        #expect(functions.map(\.function.fullName) == ["application:openURL:options:", "sharedInstance", "helper", "viewDidLoad"])
        #expect(functions.allSatisfy { $0.owner === type })
        let openURL = functions[0].function
        #expect(openURL.body?.statements.count == 1)
        #expect(Support.position(openURL.nameRange) == "3:9")
        #expect(functions[1].function.isStatic)
        #expect(functions[1].function.returnType == "instancetype")
        let helper = functions[2].function
        #expect(helper.name == "helper")
        #expect(helper.parameters.map(\.label) == [nil, nil])
        #expect(helper.parameters.map(\.name) == ["count", "names"])
        #expect(helper.parameters.map(\.type) == ["int", "char *[]"])
        #expect(helper.modifiers == ["static"])
        #expect(functions[3].function.name == "viewDidLoad")
        #expect(functions[3].function.body?.statements.count == 1)
    }

    @Test func cFileWithMemoryAndSocketCalls() throws {
        let source = """
        #include <string.h>
        #include <sys/socket.h>
        #define BUF 256

        struct packet {
            unsigned int length;
            char data[BUF];
        };

        static const char *kToken = "abc";

        ssize_t receive(int fd, struct packet *out) {
            char buffer[BUF];
            ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
            if (n <= 0) goto fail;
            char *copy = malloc((size_t)n);
            memcpy(copy, buffer, n);
            strcpy(out->data, copy);
            free(copy);
            return n;
        fail:
            return -1;
        }
        """
        let file = Support.parse(source, .c, path: "net.c")
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.imports == ["string.h", "sys/socket.h"])
        let packet = try #require(file.allTypes.first)
        #expect(packet.kind == .struct)
        #expect(packet.name == "packet")
        #expect(packet.variables.map(\.name) == ["length", "data"])
        #expect(packet.variables.map(\.type) == ["unsigned int", "char[]"])

        guard case .variable(let token) = file.declarations[1] else { Issue.record("kToken"); return }
        #expect(token.name == "kToken")
        #expect(token.isConstant)
        #expect(token.isStatic)
        #expect(token.initializer?.stringValue == "abc")

        let receive = try #require(file.allFunctions.first { $0.function.name == "receive" }?.function)
        #expect(receive.fullName == "receive")
        #expect(receive.returnType == "ssize_t")
        #expect(receive.parameters.map(\.type) == ["int", "struct packet *"])
        for name in ["recv", "malloc", "memcpy", "strcpy", "free"] {
            let call = try #require(Support.call(file, name), "\(name) not found")
            #expect(Support.position(call.range) == Support.locate(name + "(", in: source))
        }
        let recv = try #require(Support.call(file, "recv"))
        #expect(Support.render(recv) == "recv(fd, buffer, sizeof(buffer), 0)")
        #expect(Support.outline(file.declarations).contains("other@\(Support.locate("goto", in: source)) goto fail"))
        #expect(Support.outline(file.declarations).contains("return@22:5 -1"))
    }

    @Test func objectiveCPlusPlusWithACppClass() throws {
        let source = """
        #import <Foundation/Foundation.h>
        #include <string>

        namespace vault {

        template <typename T>
        class KeyStore : public Store<T>, private Noncopyable {
        public:
            explicit KeyStore(const std::string &name) : name_(name) {}
            ~KeyStore() { wipe(); }
            bool save(const std::string &key, NSData *value) const {
                return SecItemAdd((__bridge CFDictionaryRef)query(key, value), NULL) == errSecSuccess;
            }
            static KeyStore *shared();
        private:
            std::string name_;
        };

        std::string KeyStore::describe() const { return name_; }

        }  // namespace vault

        @implementation VaultBridge
        - (void)store:(NSData *)data {
            vault::KeyStore<int> store("main");
            store.save("token", data);
        }
        @end
        """
        let file = Support.parse(source, .objectiveCPlusPlus, path: "Vault.mm")
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let keyStore = try #require(file.allTypes.first { $0.name == "KeyStore" })
        #expect(keyStore.kind == .class)
        #expect(keyStore.inherits == ["Store<T>", "Noncopyable"])
        #expect(keyStore.functions.map(\.name) == ["KeyStore", "~KeyStore", "save", "shared"])
        #expect(keyStore.functions.map { $0.body != nil } == [true, true, true, false])
        #expect(keyStore.functions[2].parameters.map(\.name) == ["key", "value"])
        #expect(keyStore.functions[3].isStatic)
        #expect(keyStore.variables.map(\.name) == ["name_"])
        let add = try #require(Support.call(file, "SecItemAdd"))
        #expect(Support.position(add.range) == Support.locate("SecItemAdd(", in: source))

        let describe = try #require(file.allFunctions.first { $0.function.name == "describe" }?.function)
        #expect(describe.fullName == "KeyStore::describe")
        let bridge = try #require(file.allTypes.first { $0.name == "VaultBridge" })
        #expect(bridge.functions.map(\.fullName) == ["store:"])
        #expect(Support.call(file, "save")?.receiver?.name == "store")
    }

    @Test func malformedFileRecoversAtStatementBoundaries() throws {
        let source = """
        @interface Broken : NSObject
        - (void)ok;
        - (void)missingSemicolon
        @property (nonatomic) NSString *name;
        @end

        @implementation Broken
        - (void)ok {
            [self first];
            [self unterminated:
            int x = ;
            [self second];
            if (x { [self third]; }
            )))
            [self fourth];
        }
        - (void)after { [self fifth]; }
        @end
        """
        let file = Support.parse(source)
        #expect(!file.diagnostics.isEmpty)
        let interface = try #require(file.allTypes.first { $0.kind == .objcInterface })
        #expect(interface.functions.map(\.fullName) == ["ok", "missingSemicolon"])
        #expect(interface.variables.map(\.name) == ["name"])
        let names = Set(Support.calls(file).compactMap(\.name))
        for expected in ["first", "second", "third", "fourth", "fifth"] {
            #expect(names.contains(expected), "\(expected) lost in \(names)")
        }
        let implementation = try #require(file.allTypes.first { $0.kind == .objcImplementation })
        #expect(implementation.functions.map(\.fullName) == ["ok", "after"])
    }
}
