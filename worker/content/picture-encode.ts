/** What every stored picture file is sent with: its name is its content, kept for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** One output of the Images binding, as bytes. */
export async function encode(
  images: ImagesBinding,
  bytes: Uint8Array,
  steps: ImageTransform[],
  output: ImageOutputOptions,
) {
  let image = images.input(new Blob([bytes]).stream())
  for (const step of steps) image = image.transform(step)
  const result = await image.output(output)
  return new Uint8Array(await result.response().arrayBuffer())
}
