// Runs one streaming request with an official Node SDK and prints what the caller sees as one JSON line:
// {"outcome":"ok","text":…} or {"outcome":"error","errorClass":…,"status":…,"message":…}.
// Usage: node sdk-stream.mjs anthropic|openai <baseURL> <apiKey> <model>
// NodeSdkIT runs it against the fake upstream directly and through Detour and compares the two lines.
// No retries (maxRetries 0): the comparison is about what one answer means to the SDK.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

const [sdk, baseURL, apiKey, model] = process.argv.slice(2);
let text = '';
try {
  if (sdk === 'anthropic') {
    const client = new Anthropic({ baseURL, apiKey, maxRetries: 0, timeout: 60_000 });
    const stream = await client.messages.create({
      model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Say hello.' }],
    });
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
  } else if (sdk === 'openai') {
    const client = new OpenAI({ baseURL: baseURL + '/v1', apiKey, maxRetries: 0, timeout: 60_000 });
    const stream = await client.chat.completions.create({
      model, stream: true, messages: [{ role: 'user', content: 'Say hello.' }],
    });
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  } else {
    throw new Error('unknown sdk ' + sdk);
  }
  console.log(JSON.stringify({ outcome: 'ok', text }));
} catch (err) {
  console.log(JSON.stringify({
    outcome: 'error', errorClass: err?.constructor?.name, status: err?.status ?? null,
    message: String(err?.message ?? err).slice(0, 300), text,
  }));
}
