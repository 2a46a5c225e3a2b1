/**
 * One run of a tool for a `tools/call` (or REST, `callTool`, a task): check the arguments, build
 * the context, execute, and turn what came back into the call's answer. In the 2026-07-28 era the
 * run may suspend for client input (`SuspendableRun`): it is parked and the call answers an
 * input-required result; a retry resumes it. A tool that returns the SDK's `inputRequired(...)`
 * itself is answered in each era by `tools/multi-round.ts`. Here in dispatch/, beside the handlers
 * that run it (`tools/call`, tasks), because it reads the catalog, the tasks and the server's scope,
 * all of which sit above tools/ (what a tool is and what it sees).
 */
import { type CallToolResult, ProtocolError, type Result } from '@modelcontextprotocol/server';
import type { CallAbort } from '../cancellation/call-abort.js';
import type { ServedTool } from '../catalog/tool-catalog.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { toWireError } from '../errors/to-wire-error.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { TaskRecord } from '../tasks/task-store.js';
import { declaresTasks, taskOptionsOf } from '../tasks/task-support.js';
import { askForApproval } from '../tools/approval-prompt.js';
import {
  type ClientInputChannel,
  noClientReason,
  sessionInputChannel,
  unavailableInputChannel,
} from '../tools/client-input-channel.js';
import type { ToolReturnValue } from '../tools/define-tool.js';
import {
  answerInputRequired,
  isInputRequired,
  modernInputRequired,
  type RoundInput,
} from '../tools/multi-round.js';
import { type RunEvent, SuspendableRun } from '../tools/suspendable-run.js';
import type { SuspendedCall } from '../tools/suspended-calls.js';
import { isPromiseLike, toCallToolResult, toErrorResult } from '../tools/to-call-tool-result.js';
import { ToolContextHandle, type ToolContextScope } from '../tools/tool-context.js';
import { ToolExecuteOptions } from '../tools/tool-execute-options.js';
import { validatedArguments } from '../tools/validated-arguments.js';
import type { ServerScope } from './server-scope.js';

const isMissingCapability = (error: unknown): boolean =>
  (ServerError.isServerError(error) && error.code === ServerErrorCode.MissingClientCapability) ||
  (ProtocolError.isInstance(error) && error.code === JsonRpcErrorCode.MissingRequiredClientCapability);

/** A run that may become a task. */
interface TaskEscalation {
  task: TaskRecord | undefined;
  /** What the tool's execute returned (a value or a promise). */
  outcome: unknown;
  inputs: ClientInputChannel;
  continueAsTask(): Promise<void>;
  follow(value: unknown): void;
}

/** The `CreateTaskResult` of a task. */
function taskAnswer(task: TaskRecord): Result {
  return { resultType: 'task', ...task.info() } as Result;
}

/** The answer of a tool call: its result, at once when the tool answered synchronously. */
export type ToolAnswer = Result | Promise<Result>;

/** One run of one tool. */
export class ToolInvocation {
  readonly #request: InboundRequest;
  readonly #scope: ServerScope;
  readonly #tool: ServedTool;
  readonly #args: Record<string, unknown>;
  readonly #structured: boolean;
  /** The cancellation the tool follows (the first round's, also for resumed rounds). */
  #runAbort: CallAbort;
  /** A person said yes to this call (or an earlier round of it ran). */
  #approved = false;

  constructor(request: InboundRequest, scope: ServerScope, tool: ServedTool, args: Record<string, unknown>) {
    this.#request = request;
    this.#scope = scope;
    this.#tool = tool;
    this.#args = args;
    this.#structured = tool.registered.outputSchema !== undefined;
    this.#runAbort = request.abort;
  }

  /**
   * Runs the tool. `round`: the answers of a retried round; `inputs`: where client input goes
   * instead of the era's default (a task asks through its own `inputRequests`).
   */
  run(round?: RoundInput, inputs?: ClientInputChannel): ToolAnswer {
    const request = this.#request;
    const validation = this.#scope.validator.validate(this.#tool.registered, this.#args);
    if (!validation.valid)
      return { isError: true, content: [{ type: 'text', text: validation.error.message }] };
    const run =
      inputs === undefined && request.era === 'modern'
        ? new SuspendableRun(request.envelope?.clientCapabilities ?? {})
        : undefined;
    const escalation = run !== undefined ? this.#escalation(run) : undefined;
    const scope: ToolContextScope = {
      request,
      inputs: inputs ?? escalation?.inputs ?? run ?? this.#legacyInputs(),
    };
    if (round?.inputResponses !== undefined) scope.inputResponses = round.inputResponses;
    if (round?.requestState !== undefined) scope.requestState = round.requestState;
    if (escalation !== undefined) scope.continueAsTask = escalation.continueAsTask;
    const context = new ToolContextHandle(scope);
    let value: unknown;
    try {
      value = this.#execute(context);
    } catch (error) {
      context.follow(undefined);
      return this.#failed(error);
    }
    escalation?.follow(value);
    if (!isPromiseLike(value)) {
      // Answered now: progress or logs the tool sends later (a timer) have no stream to go to.
      context.follow(undefined);
      return escalation?.task !== undefined
        ? taskAnswer(escalation.task)
        : this.#finish(value as ToolReturnValue);
    }
    if (run === undefined) {
      return Promise.resolve(value).then(
        (settled) => {
          context.follow(undefined);
          return this.#finish(settled as ToolReturnValue);
        },
        (error) => {
          context.follow(undefined);
          return this.#failed(error);
        },
      );
    }
    run.follow(value);
    return run.next().then((event) => this.#onEvent(event, run, context));
  }

  /**
   * For tools with `task: { start: 'on-request' }` called by a client that declares the tasks
   * extension: `continueAsTask()` creates the task, answers the call with it, and sends the rest
   * of the run (its questions, its result) to the task.
   */
  #escalation(run: SuspendableRun): TaskEscalation | undefined {
    const options = taskOptionsOf(this.#tool);
    if (options?.start !== 'on-request' || !declaresTasks(this.#request)) return undefined;
    const escalation: TaskEscalation = {
      task: undefined,
      outcome: undefined,
      inputs: { ask: (question) => (escalation.task ?? run).ask(question) },
      continueAsTask: async () => {
        if (escalation.task !== undefined) return;
        const task = this.#scope.tasks.create({
          ttlMs: options.ttlMs ?? 3_600_000,
          pollIntervalMs: options.pollIntervalMs ?? 500,
        });
        escalation.task = task;
        run.escalate(task);
        if (escalation.outcome !== undefined) this.#settleTask(task, escalation.outcome);
      },
      follow: (value) => {
        escalation.outcome = value;
        if (escalation.task !== undefined) this.#settleTask(escalation.task, value);
      },
    };
    return escalation;
  }

  /** Sends what the tool returned (or threw) to its task. */
  #settleTask(task: TaskRecord, outcome: unknown): void {
    Promise.resolve(outcome).then(
      (value) =>
        task.complete(
          toCallToolResult(value as ToolReturnValue, this.#structured) as Record<string, unknown>,
        ),
      (error: unknown) => {
        if (ProtocolError.isInstance(error) || ServerError.isServerError(error))
          task.fail(toWireError(error));
        else task.complete(toErrorResult(error, this.#scope.debug) as Record<string, unknown>);
      },
    );
  }

  /**
   * Resumes a parked run with a retry's answers: the run goes on following the first round's
   * cancellation, and its progress and logs go out on this retry's stream from now on.
   */
  resume(parked: SuspendedCall, responses: Record<string, unknown> | undefined): Promise<Result> {
    const { run, abort, context } = parked;
    this.#runAbort = abort;
    context.follow(this.#request);
    run.answer(responses);
    return run.next().then((event) => this.#onEvent(event, run, context));
  }

  #legacyInputs(): ClientInputChannel {
    const session = this.#request.session;
    return session === undefined
      ? unavailableInputChannel(noClientReason(this.#request))
      : sessionInputChannel(session, this.#request.id, this.#request.abort);
  }

  /**
   * Marks the call as approved already: a retry whose sealed `requestState` this server issued for
   * this tool comes from a round that ran, so its approval was given (or not needed) then.
   */
  approvedEarlier(): void {
    this.#approved = true;
  }

  /** Runs the tool, first asking for a person's yes where its policy says `ask`. */
  #execute(context: ToolContextHandle): unknown {
    const need = this.#tool.approval;
    const prompt = this.#scope.approvalPrompt;
    if (need === undefined || this.#approved || prompt === 'hide') return this.#executeTool(context);
    const { registered } = this.#tool;
    const subject = {
      name: registered.name,
      server: registered.server,
      originalName: registered.originalName,
    };
    return askForApproval(prompt, context.context, subject, need, this.#args).then((refused) => {
      if (refused !== undefined) return refused;
      // The legacy shim runs a multi-round tool again with each answer: one yes covers the call.
      this.#approved = true;
      return this.#executeTool(context);
    });
  }

  #executeTool(context: ToolContextHandle): unknown {
    const { local, registered } = this.#tool;
    if (local !== undefined) {
      return local.execute(validatedArguments(local, this.#args), context.forTool(local.execute));
    }
    if (registered.execute === undefined) {
      throw new Error(`Tool "${registered.name}" is listed but cannot be run here (it has no execute).`);
    }
    return registered.execute(
      this.#args,
      new ToolExecuteOptions(this.#request.abort, context.context, this.#request.traceContext),
    );
  }

  async #onEvent(event: RunEvent, run: SuspendableRun, context: ToolContextHandle): Promise<Result> {
    // This round's stream ends with its answer: progress and logs have nowhere to go after it
    // (until a retry resumes a parked run).
    context.follow(undefined);
    if (event.kind === 'task') return taskAnswer(event.task as TaskRecord);
    if (event.kind === 'done') return this.#finish(event.value as ToolReturnValue);
    if (event.kind === 'failed') return this.#failed(event.error);
    // The tool waits for the client: park it, and answer with its questions and a sealed handle.
    const name = this.#tool.registered.name;
    const id = this.#scope.suspended.park({
      run,
      abort: this.#runAbort,
      context,
      method: 'tools/call',
      target: name,
    });
    const owner = this.#request.replicaId;
    return modernInputRequired(
      event.requests,
      { method: 'tools/call', target: name, runId: id, ...(owner !== undefined ? { replica: owner } : {}) },
      this.#scope.seal,
    );
  }

  #finish(value: ToolReturnValue): ToolAnswer {
    const result = toCallToolResult(value, this.#structured);
    if (!isInputRequired(result)) return result;
    return answerInputRequired(
      this.#request,
      result,
      { method: 'tools/call', target: this.#tool.registered.name },
      this.#scope.seal,
      (input) => Promise.resolve(this.#rerun(input)),
    ).catch((error: unknown) => this.#failed(error));
  }

  /** A round of the legacy shim: the tool again with the client's answers, its raw result. */
  #rerun(round: RoundInput): CallToolResult | Promise<CallToolResult> {
    const context = new ToolContextHandle({ request: this.#request, inputs: this.#legacyInputs(), ...round });
    const toResult = (settled: unknown) => toCallToolResult(settled as ToolReturnValue, this.#structured);
    let value: unknown;
    try {
      value = this.#execute(context);
    } catch (error) {
      return this.#failed(error);
    }
    return isPromiseLike(value)
      ? Promise.resolve(value).then(toResult, (error) => this.#failed(error))
      : toResult(value);
  }

  #failed(error: unknown): CallToolResult {
    if (this.#request.abort.aborted || this.#runAbort.aborted) throw error;
    // A question the client declared it cannot answer fails the call itself (-32021), not the tool.
    if (this.#request.era === 'modern' && isMissingCapability(error)) throw error;
    // A protocol error thrown on purpose (the SDK's ProtocolError: URL elicitation required, a
    // relayed upstream error) is the call's JSON-RPC error; anything else is the tool failing.
    if (ProtocolError.isInstance(error)) throw error;
    this.#scope.logger.debug(
      { tool: this.#tool.registered.name, error: error instanceof Error ? error.message : String(error) },
      'tool failed',
    );
    return toErrorResult(error, this.#scope.debug);
  }
}
