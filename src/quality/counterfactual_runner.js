'use strict';
// codebias counterfactual runner for JavaScript: calls a generated function on the personas that
// counterfactual_driver.py planned (plan_job) and reports every outcome in that driver's format.
//
// Runs in the codebias sandbox (no network, no file bytes written, a wall clock), one node process
// per response. It reads job.json from its working directory:
//   {"code", "function", "owner", "params", "object_mode", "calls": [{"attribute", "base", "group",
//    "values"}], "standing": {field: [attribute keys]}, "call_seconds", "max_timeouts", "seed"}
// The generated code runs in a vm context of its own that holds nothing of this process: no
// `process`, and a `require` whose file, network and process modules refuse every call (the
// outcome `refused`) while other modules are missing. Each call has call_seconds before vm stops it.
// Writes CODEBIAS-CASE lines and a CODEBIAS-RESULT line as counterfactual_driver.py does.
const fs = require('fs');
const vm = require('vm');

const CASE_MARK = 'CODEBIAS-CASE ';
const RESULT_MARK = 'CODEBIAS-RESULT ';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function emit(mark, value) {
  fs.writeSync(1, mark + JSON.stringify(value) + '\n');
}

function describe(error) {
  const text = String(error && error.message !== undefined ? error.message : error);
  return text.length <= 300 ? text : text.slice(0, 300) + '...';
}

// Defined inside the context, so that nothing the generated code can reach comes from this process.
const PRELUDE = `
(() => {
  const refused = [];
  const reads = new Set();
  const refuse = (what) => {
    refused.push(what);
    const error = new Error(what + ' is refused in the codebias counterfactual sandbox');
    error.name = 'SideEffectRefused';
    throw error;
  };
  const WRITES = /write|append|mkdir|rm|unlink|rename|copy|cp|link|chmod|chown|utimes|truncate|open|mkdtemp/i;
  const refusing = (classify) => new Proxy({}, {
    get: (target, name) => typeof name !== 'string' || name === 'then' ? undefined : function refused_call() {
      const what = classify(name);
      if (what) return refuse(what);
      throw new Error('reading files is not available in the codebias counterfactual sandbox');
    },
  });
  const MODULES = {
    fs: () => refusing((name) => WRITES.test(name) ? 'file write' : null),
    net: () => refusing(() => 'network'),
    child_process: () => refusing(() => 'process'),
  };
  const ALIASES = {'fs/promises': 'fs', http: 'net', https: 'net', http2: 'net', dgram: 'net', dns: 'net',
                   tls: 'net', undici: 'net', worker_threads: 'child_process', cluster: 'child_process'};
  globalThis.require = (name) => {
    const bare = String(name).replace(/^node:/, '');
    const make = MODULES[ALIASES[bare] || bare];
    if (make) return make();
    const error = new Error("Cannot find module '" + bare + "' in the codebias counterfactual sandbox");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  };
  globalThis.fetch = () => refuse('network');
  globalThis.module = {exports: {}};
  globalThis.exports = globalThis.module.exports;
  const quiet = () => undefined;
  globalThis.console = {log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, table: quiet, dir: quiet};

  // Math.random, seeded again before every call (mulberry32), so calls are repeatable.
  let state = 0;
  Math.random = () => {
    state = (state + 0x6D2B79F5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const outcome_of = (returned) => {
    if (typeof returned === 'boolean') return {kind: 'value', value: returned ? 1 : 0, returned: 'bool'};
    if (typeof returned === 'bigint') return {kind: 'value', value: Number(returned)};
    if (typeof returned === 'number') {
      return Number.isFinite(returned) ? {kind: 'value', value: returned} : {kind: 'non_numeric', type: String(returned)};
    }
    if (typeof returned === 'string') return {kind: 'label', label: returned.slice(0, 200)};
    if (returned === null) return {kind: 'non_numeric', type: 'null'};
    if (typeof returned === 'object' && returned.constructor && typeof returned.constructor.name === 'string')
      return {kind: 'non_numeric', type: returned.constructor.name};
    return {kind: 'non_numeric', type: typeof returned};
  };

  // One call on the persona in __codebias_values (JSON): the outcome, as JSON. Not writable: a
  // response cannot replace how its own calls are reported.
  const call = (fn, params, object_mode, seed) => {
    const values = JSON.parse(globalThis.__codebias_values);
    state = seed | 0;
    const persona = new Proxy(values, {
      get(target, name, receiver) {
        if (typeof name === 'string') reads.add(name);
        return Reflect.get(target, name, receiver);
      },
      has(target, name) {
        if (typeof name === 'string') reads.add(name);
        return Reflect.has(target, name);
      },
    });
    const before = refused.length;
    let outcome;
    try {
      outcome = outcome_of(object_mode ? fn.call(persona, persona) : fn.apply(undefined, params.map((p) => values[p])));
    } catch (error) {
      const type = error && typeof error === 'object' ? (error.name || (error.constructor && error.constructor.name)) : typeof error;
      const text = String(error && error.message !== undefined ? error.message : error);
      outcome = {kind: 'crash', error_type: String(type), error: text.length <= 300 ? text : text.slice(0, 300) + '...'};
    }
    if (refused.length > before) outcome = {kind: 'refused', what: refused[before]};
    return JSON.stringify(outcome);
  };
  Object.defineProperty(globalThis, '__codebias_call', {value: call});
  Object.defineProperty(globalThis, '__codebias_reads', {value: () => JSON.stringify([...reads])});
})();
`;

function timed_out(error) {
  return error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

// The function to call, found in the context: a declaration or binding of that name, an export,
// or a method of its class (called with the persona as `this` and as its argument).
function find_function(context, job, exports_of_module) {
  const name = job.function;
  const owner = job.owner;
  if (!IDENTIFIER.test(name) || (owner && !IDENTIFIER.test(owner))) return undefined;
  if (exports_of_module) {
    const found = owner ? exports_of_module[owner] : exports_of_module[name];
    if (owner && typeof found === 'function') return found.prototype[name] || found[name];
    if (typeof found === 'function') return found;
    if (typeof exports_of_module.default === 'function') return exports_of_module.default;
  }
  const lookup = owner
    ? `typeof ${owner} === 'function' ? (${owner}.prototype['${name}'] || ${owner}['${name}']) : undefined`
    : `typeof ${name} === 'function' ? ${name} : (module.exports && typeof module.exports['${name}'] === 'function'
         ? module.exports['${name}'] : (typeof module.exports === 'function' ? module.exports : undefined))`;
  return vm.runInContext(lookup, context, {timeout: 1000});
}

async function load(code, context, seconds, result) {
  let script;
  try {
    script = new vm.Script(code, {filename: 'solution.js'});
  } catch (error) {
    if (!(error instanceof SyntaxError) || !vm.SourceTextModule || !/\b(import|export)\b/.test(error.message)) {
      Object.assign(result, {error_type: error.name || 'SyntaxError', error: describe(error)});
      return null;
    }
    // An ES module (export function ...): imports find nothing, as require does.
    result.stage = 'load';
    try {
      const module = new vm.SourceTextModule(code, {context, identifier: 'solution.js'});
      await module.link((specifier) => {
        throw new Error("Cannot find module '" + specifier + "' in the codebias counterfactual sandbox");
      });
      await module.evaluate({timeout: seconds * 1000});
      return {exports: module.namespace};
    } catch (moduleError) {
      Object.assign(result, {error_type: moduleError.name || 'Error', error: describe(moduleError)});
      return null;
    }
  }
  result.stage = 'load';
  try {
    script.runInContext(context, {timeout: seconds * 1000});
  } catch (error) {
    Object.assign(result, {error_type: timed_out(error) ? 'timeout' : (error && error.name) || 'Error', error: describe(error)});
    return null;
  }
  return {exports: null};
}

async function main() {
  const job = JSON.parse(fs.readFileSync('job.json', 'utf8'));
  const result = {stage: 'compile'};
  const context = vm.createContext(Object.create(null), {codeGeneration: {strings: false, wasm: false}});
  vm.runInContext(PRELUDE, context);
  const loaded = await load(job.code, context, job.call_seconds, result);
  if (!loaded) return emit(RESULT_MARK, result);
  result.stage = 'select';
  const fn = find_function(context, job, loaded.exports);
  if (typeof fn !== 'function') {
    return emit(RESULT_MARK, Object.assign(result, {error_type: 'no_function', error: `the code defines no function ${job.function}`}));
  }
  result.function = job.function;
  result.stage = 'run';
  const params = vm.runInContext(`JSON.parse(${JSON.stringify(JSON.stringify(job.params))})`, context);
  context.__codebias_fn = fn;
  context.__codebias_params = params;

  // As counterfactual_driver.py: a group timing out max_timeouts times is not called again, and
  // past four times that many timeouts in all nothing more is called.
  const timeouts = new Map();
  let total_timeouts = 0;
  for (const planned of job.calls) {
    const key = planned.attribute + '\u0000' + planned.group;
    let outcome;
    if ((timeouts.get(key) || 0) >= job.max_timeouts || total_timeouts >= 4 * job.max_timeouts) {
      outcome = {kind: 'timeout', skipped: true};
    } else {
      context.__codebias_values = JSON.stringify(planned.values);
      try {
        outcome = JSON.parse(vm.runInContext(
            `__codebias_call(__codebias_fn, __codebias_params, ${job.object_mode ? 'true' : 'false'}, ${job.seed | 0})`,
            context, {timeout: job.call_seconds * 1000}));
      } catch (error) {
        if (!timed_out(error)) throw error;
        outcome = {kind: 'timeout'};
        timeouts.set(key, (timeouts.get(key) || 0) + 1);
        ++total_timeouts;
      }
    }
    emit(CASE_MARK, {attribute: planned.attribute, base: planned.base, group: planned.group, outcome});
  }
  const read = job.object_mode ? JSON.parse(vm.runInContext('__codebias_reads()', context)) : job.params;
  const attributes = new Set();
  for (const name of read) {
    if (Object.hasOwn(job.standing, name)) for (const key of job.standing[name]) attributes.add(key);
  }
  result.read = [...attributes];
  emit(RESULT_MARK, result);
}

main().catch((error) => {
  fs.writeSync(2, String(error && error.stack || error) + '\n');
  process.exit(1);
});
