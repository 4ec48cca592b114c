// What CheckingTheGraph.md's Swift blocks assume (see .ci/snippets).
import Injector

var injector: DependencyInjector { .shared }
