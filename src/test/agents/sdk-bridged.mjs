// Runs a list of cases with one official Node SDK and prints, per case, one JSON line of what the SDK parsed:
// {"case":…,"outcome":"ok",…} or {"case":…,"outcome":"error","errorClass":…,"status":…,"message":…}.
// Usage: node sdk-bridged.mjs <cases.json>, a JSON array of {case, sdk, kind, baseURL, apiKey, model}.
// BridgedNodeSdkIT writes the cases (one per Detour model, each served through a bridge) and reads the lines.
// One process per SDK runs every case (the suite's process count stays low); no retries (maxRetries 0).
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

const QUESTION = 'What is the weather in Paris?';
const TOOL_OUTPUT = '{"temperature_c":21,"sky":"clear"}';
const WEATHER_SCHEMA = {
  type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false,
};

function openai(c) {
  return new OpenAI({ baseURL: c.baseURL + '/v1', apiKey: c.apiKey, maxRetries: 0, timeout: 60_000 });
}

function anthropic(c) {
  return new Anthropic({ baseURL: c.baseURL, apiKey: c.apiKey, maxRetries: 0, timeout: 60_000 });
}

function chatUsage(usage) {
  return usage ? { input: usage.prompt_tokens, output: usage.completion_tokens } : null;
}

function responsesUsage(usage) {
  return usage ? { input: usage.input_tokens, output: usage.output_tokens } : null;
}

function messagesUsage(usage) {
  return usage ? { input: usage.input_tokens, output: usage.output_tokens } : null;
}

function messagesText(message) {
  return message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
}

const CASES = {
  // OpenAI Chat Completions
  async 'chat'(c) {
    const completion = await openai(c).chat.completions.create({
      model: c.model, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello.' }],
    });
    const choice = completion.choices[0];
    return { text: choice.message.content, stop: choice.finish_reason, usage: chatUsage(completion.usage) };
  },
  async 'chat-stream'(c) {
    const stream = openai(c).chat.completions.stream({
      model: c.model, messages: [{ role: 'user', content: 'Say hello.' }], stream_options: { include_usage: true },
    });
    let deltas = '';
    for await (const chunk of stream) deltas += chunk.choices[0]?.delta?.content ?? '';
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0];
    return { text: choice.message.content, deltas, stop: choice.finish_reason, usage: chatUsage(completion.usage) };
  },
  async 'chat-tools'(c) {
    const client = openai(c);
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city', parameters: WEATHER_SCHEMA } }];
    const messages = [{ role: 'user', content: QUESTION }];
    const stream = client.chat.completions.stream({ model: c.model, messages, tools, stream_options: { include_usage: true } });
    const first = await stream.finalChatCompletion();
    const asked = first.choices[0].message;
    const calls = (asked.tool_calls ?? []).map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments }));
    messages.push({
      role: 'assistant', content: asked.content,
      tool_calls: calls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })),
    });
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: TOOL_OUTPUT });
    const second = await client.chat.completions.create({ model: c.model, messages, tools });
    return {
      calls, firstStop: first.choices[0].finish_reason, text: second.choices[0].message.content,
      stop: second.choices[0].finish_reason, usage: chatUsage(second.usage),
    };
  },

  // OpenAI Responses
  async 'responses'(c) {
    const response = await openai(c).responses.create({ model: c.model, instructions: 'Be brief.', input: 'Say hello.' });
    return { text: response.output_text, stop: response.status, usage: responsesUsage(response.usage) };
  },
  async 'responses-stream'(c) {
    const stream = openai(c).responses.stream({ model: c.model, input: 'Say hello.' });
    let deltas = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') deltas += event.delta;
    const response = await stream.finalResponse();
    return { text: response.output_text, deltas, stop: response.status, usage: responsesUsage(response.usage) };
  },
  async 'responses-tools'(c) {
    const client = openai(c);
    const tools = [{ type: 'function', name: 'get_weather', description: 'Weather in a city', parameters: WEATHER_SCHEMA, strict: true }];
    const input = [{ role: 'user', content: QUESTION }];
    const stream = client.responses.stream({ model: c.model, input, tools });
    const first = await stream.finalResponse();
    const calls = first.output.filter((o) => o.type === 'function_call')
      .map((o) => ({ id: o.call_id, name: o.name, arguments: o.arguments }));
    input.push(...first.output); // as OpenAI's guide does: the output items go back as they came
    for (const call of calls) input.push({ type: 'function_call_output', call_id: call.id, output: TOOL_OUTPUT });
    const second = await client.responses.create({ model: c.model, input, tools });
    return {
      calls, firstStop: first.status, text: second.output_text, stop: second.status, usage: responsesUsage(second.usage),
    };
  },

  // Anthropic Messages
  async 'messages'(c) {
    const message = await anthropic(c).messages.create({
      model: c.model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello.' }],
    });
    return { text: messagesText(message), stop: message.stop_reason, usage: messagesUsage(message.usage) };
  },
  async 'messages-stream'(c) {
    const stream = anthropic(c).messages.stream({ model: c.model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello.' }] });
    let deltas = '';
    stream.on('text', (text) => { deltas += text; });
    const message = await stream.finalMessage();
    return { text: messagesText(message), deltas, stop: message.stop_reason, usage: messagesUsage(message.usage) };
  },
  async 'messages-tools'(c) {
    const client = anthropic(c);
    const tools = [{ name: 'get_weather', description: 'Weather in a city', input_schema: WEATHER_SCHEMA }];
    const messages = [{ role: 'user', content: QUESTION }];
    const first = await client.messages.stream({ model: c.model, max_tokens: 256, messages, tools }).finalMessage();
    const uses = first.content.filter((b) => b.type === 'tool_use');
    const calls = uses.map((b) => ({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) }));
    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: uses.map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: TOOL_OUTPUT })) });
    const second = await client.messages.create({ model: c.model, max_tokens: 256, messages, tools });
    return {
      calls, firstStop: first.stop_reason, text: messagesText(second), stop: second.stop_reason,
      usage: messagesUsage(second.usage),
    };
  },
};

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const c of cases) {
  try {
    const run = CASES[c.kind];
    if (!run) throw new Error('unknown case kind ' + c.kind);
    console.log(JSON.stringify({ case: c.case, outcome: 'ok', ...(await run(c)) }));
  } catch (err) {
    console.log(JSON.stringify({
      case: c.case, outcome: 'error', errorClass: err?.constructor?.name, status: err?.status ?? null,
      message: String(err?.message ?? err).slice(0, 500),
    }));
  }
}
