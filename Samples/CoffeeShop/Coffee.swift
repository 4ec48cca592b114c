import Injector

// The classic dependency-injection example (Dagger's coffee maker): a CoffeeMaker needs a
// Heater and a Pump; the Thermosiphon pump needs the Heater too. Nobody calls an initialiser
// with dependencies: `@Inject` resolves them, `CoffeeModule`'s `@Provider`s register them.

protocol Heater: AnyObject {
    var isHot: Bool { get }
    func on()
    func off()
}

protocol Pump {
    func pump()
}

/// One log for the whole shop: a singleton, created the first time someone needs it.
final class CoffeeLogger {
    private(set) var lines: [String] = []

    init() { print("  (CoffeeLogger created)") }

    func log(_ message: String) {
        lines.append(message)
        print("  [log] \(message)")
    }
}

final class ElectricHeater: Heater {
    @Inject var logger: CoffeeLogger
    private(set) var isHot = false

    func on() {
        isHot = true
        logger.log("~ ~ ~ heating ~ ~ ~")
    }

    func off() {
        isHot = false
    }
}

/// A pump that only pumps while the heater is hot.
final class Thermosiphon: Pump {
    @Inject var heater: any Heater
    @Inject var logger: CoffeeLogger

    func pump() {
        if heater.isHot {
            logger.log("=> => pumping => =>")
        } else {
            logger.log("the water is cold: not pumping")
        }
    }
}

/// What the shop's counter uses. Its dependencies are resolved when it is created.
final class CoffeeMaker {
    @Inject var heater: any Heater
    @Inject var pump: any Pump
    @Inject var logger: CoffeeLogger
    @Inject(name: "beans") var beans: String
    @Inject(name: "cupSize") var cupSize: Int

    func brew() {
        heater.on()
        pump.pump()
        logger.log("[_]P \(cupSize) ml of \(beans) [_]P")
        heater.off()
    }
}

/// The shop's start-up registrations, declared as properties. Creating the module registers
/// them (into `DependencyInjector.current`, here `shared`).
final class CoffeeModule {
    // Scoped providers: the expression after `=` becomes the factory, run by the injector.
    @Provider(scope: .singleton) var logger = CoffeeLogger()
    @Provider(scope: .singleton) var heater: any Heater = ElectricHeater()
    @Provider(scope: .transient) var pump: any Pump = Thermosiphon()
    // Plain values, told apart from other strings and integers by name.
    @Provider(name: "beans") var beans = "Yirgacheffe"
    @Provider(name: "cupSize") var cupSize = 250
}

/// A heater for tests and demos: always hot, and it says so.
final class MockHeater: Heater {
    var isHot: Bool { true }
    func on() { print("  (MockHeater: already hot)") }
    func off() {}
}
