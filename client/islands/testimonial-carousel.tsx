import useEmblaCarousel from 'embla-carousel-react'
import { useCallback, type KeyboardEvent } from 'react'
import { Icon, Stars } from '../components/icon'
import { defineIsland } from '../island'

export type Testimonial = {
  name: string
  company: string
  role: string
  content: string
}

export type TestimonialCarouselProps = {
  label: string
  prevLabel: string
  nextLabel: string
  ratingLabel: string
  /** "1 of 8" … per slide, already translated. */
  slideLabels: string[]
  items: Testimonial[]
  dir: 'ltr' | 'rtl'
}

const reducedMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches

/** Testimonials that loop and drag freely (SPEC §2), with buttons and arrow keys too. */
function TestimonialCarousel(props: TestimonialCarouselProps) {
  const { items, dir } = props
  const [viewportRef, embla] = useEmblaCarousel({
    loop: true,
    dragFree: true,
    align: 'start',
    direction: dir,
    duration: reducedMotion() ? 10 : 25,
  })
  const prev = useCallback(() => embla?.scrollPrev(), [embla])
  const next = useCallback(() => embla?.scrollNext(), [embla])
  const onKeyDown = (event: KeyboardEvent) => {
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight'
    const back = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft'
    if (event.key === forward) next()
    else if (event.key === back) prev()
    else return
    event.preventDefault()
  }

  return (
    // A focusable carousel region that takes the arrow keys (WAI-ARIA APG carousel pattern).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      aria-roledescription="carousel"
      aria-label={props.label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="rounded-2xl"
    >
      <div className="embla" ref={viewportRef}>
        <div className="embla__container -ms-4">
          {items.map((item, i) => (
            <div
              key={item.name}
              role="group"
              aria-roledescription="slide"
              aria-label={props.slideLabels[i]}
              className="min-w-0 shrink-0 grow-0 basis-full ps-4 md:basis-1/2 lg:basis-1/3"
            >
              <figure className="card m-0 flex h-full flex-col select-none">
                <div className="flex text-accent-500">
                  <Stars />
                  <span className="sr-only">{props.ratingLabel}</span>
                </div>
                <blockquote className="m-0 mt-4 flex-1 leading-relaxed text-ink-700">
                  <p className="m-0">“{item.content}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800"
                  >
                    {item.name.charAt(0)}
                  </span>
                  <span>
                    <span className="block font-semibold text-ink-900">{item.name}</span>
                    <span className="block text-sm text-ink-600">
                      {item.role}, {item.company}
                    </span>
                  </span>
                </figcaption>
              </figure>
            </div>
          ))}
        </div>
      </div>
      <div className="mt-6 flex justify-center gap-3">
        <button
          type="button"
          onClick={prev}
          className="flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 bg-white text-ink-900 hover:bg-slate-50"
        >
          <Icon name="arrow-back" />
          <span className="sr-only">{props.prevLabel}</span>
        </button>
        <button
          type="button"
          onClick={next}
          className="flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 bg-white text-ink-900 hover:bg-slate-50"
        >
          <Icon name="arrow" />
          <span className="sr-only">{props.nextLabel}</span>
        </button>
      </div>
    </section>
  )
}

export default defineIsland('testimonial-carousel', TestimonialCarousel)
